# Fails unless README.md contains each example it shows verbatim (so the README's examples are
# the ones the tests build and run).
file(READ ${SOURCE_DIR}/README.md readme)
foreach(name fib locality_homes)
  file(READ ${SOURCE_DIR}/examples/${name}.cpp example)
  string(FIND "${readme}" "${example}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "README.md does not show examples/${name}.cpp verbatim")
  endif()
endforeach()

# Regions of other files that the README shows verbatim: the lines between "// readme: NAME
# begin" and "// readme: NAME end" (the markers are not shown). The MPI ring example has its
# own check, tests/mpi/readme_check.cmake.
foreach(entry "tests/test_support.hpp|future-form")
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 file)
  list(GET parts 1 name)
  file(READ ${SOURCE_DIR}/${file} text)
  set(begin_marker "// readme: ${name} begin\n")
  string(FIND "${text}" "${begin_marker}" b)
  string(FIND "${text}" "// readme: ${name} end" e)
  if(b EQUAL -1 OR e EQUAL -1)
    message(FATAL_ERROR "${file} lacks the markers of the README region '${name}'")
  endif()
  string(LENGTH "${begin_marker}" n)
  math(EXPR b "${b} + ${n}")
  math(EXPR len "${e} - ${b}")
  string(SUBSTRING "${text}" ${b} ${len} region)
  string(FIND "${readme}" "${region}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "README.md does not show ${file}'s region '${name}' verbatim")
  endif()
endforeach()
