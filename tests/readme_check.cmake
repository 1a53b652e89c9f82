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
