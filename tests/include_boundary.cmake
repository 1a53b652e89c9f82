# The one door (docs/design/0011-one-door.md, DESIGN.md "Dependencies point one way"): fails
# when an extension reaches into the core, or the core into an extension, other than through
# include/locus/ext/. Run by ctest over the tree (include_boundary.tree_is_clean) and over two
# fixtures that break each rule once (include_boundary.rejects_*), so the check itself is
# checked.
#
#  * extensions (src/schedule, src/dataflow, src/locality, src/trace, src/laws, src/cab,
#    src/data.cpp and their public headers, locus/laws.hpp, locus/cab.hpp and locus/iterate.hpp
#    among them) include no core-private header: nothing through "../" or "runtime_state.hpp",
#    none of locus/detail/{worker,scheduler,deque}.hpp; and name none of the core's internals
#    (runtime_state, t_worker, t_before_idle, state_of, trace_pickup) outside comments;
#  * the core (src/*.cpp and src/*.hpp but data.cpp, include/locus/*.hpp but the umbrella
#    headers and data.hpp, include/locus/detail/) includes no schedule/, dataflow/ or locality/
#    header and names no extension's namespace or function (schedule::, dataflow::,
#    trace_pickup, t_before_idle, state_of) outside comments.
# src/ext/ and include/locus/ext/ are the door: they may include both sides.
cmake_minimum_required(VERSION 3.22)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<tree> -P include_boundary.cmake")
endif()

file(GLOB_RECURSE ext_files RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/src/schedule/* ${SOURCE_DIR}/src/dataflow/* ${SOURCE_DIR}/src/locality/*
     ${SOURCE_DIR}/src/trace/* ${SOURCE_DIR}/src/laws/* ${SOURCE_DIR}/src/cab/*
     ${SOURCE_DIR}/include/locus/schedule/* ${SOURCE_DIR}/include/locus/dataflow/*
     ${SOURCE_DIR}/include/locus/locality/*)
foreach(f src/data.cpp include/locus/data.hpp include/locus/dataflow.hpp include/locus/laws.hpp
          include/locus/cab.hpp include/locus/iterate.hpp)
  if(EXISTS ${SOURCE_DIR}/${f})
    list(APPEND ext_files ${f})
  endif()
endforeach()

file(GLOB core_files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/src/*.cpp ${SOURCE_DIR}/src/*.hpp
     ${SOURCE_DIR}/include/locus/*.hpp ${SOURCE_DIR}/include/locus/detail/*.hpp)
list(REMOVE_ITEM core_files src/data.cpp include/locus/data.hpp include/locus/dataflow.hpp
     include/locus/locus.hpp include/locus/laws.hpp include/locus/cab.hpp
     include/locus/iterate.hpp)

set(problems "")

# `text` without // comments (a comment may name what the code must not).
function(strip_comments text out)
  string(REGEX REPLACE "//[^\n]*" "" stripped "${text}")
  set(${out} "${stripped}" PARENT_SCOPE)
endfunction()

foreach(f IN LISTS ext_files)
  file(READ ${SOURCE_DIR}/${f} text)
  string(REGEX MATCHALL "#include \"[^\"]+\"" incs "${text}")
  foreach(inc IN LISTS incs)
    if(inc MATCHES "\"\\.\\./|runtime_state\\.hpp|locus/detail/(worker|scheduler|deque)\\.hpp")
      list(APPEND problems "${f}: extension includes a core-private header: ${inc}")
    endif()
  endforeach()
  strip_comments("${text}" code)
  string(REGEX MATCHALL
         "[^A-Za-z0-9_](runtime_state|t_worker|t_before_idle|state_of|trace_pickup)[^A-Za-z0-9_]"
         names "${code}")
  foreach(n IN LISTS names)
    list(APPEND problems "${f}: extension names a core internal: ${n}")
  endforeach()
endforeach()

foreach(f IN LISTS core_files)
  file(READ ${SOURCE_DIR}/${f} text)
  string(REGEX MATCHALL "#include \"[^\"]+\"" incs "${text}")
  foreach(inc IN LISTS incs)
    if(inc MATCHES "(^|[/\"])(schedule|dataflow|locality)/")
      list(APPEND problems "${f}: the core includes an extension's header: ${inc}")
    endif()
  endforeach()
  strip_comments("${text}" code)
  string(REGEX MATCHALL
         "[^A-Za-z0-9_](schedule::|dataflow::|trace_pickup|t_before_idle|state_of\\()"
         names "${code}")
  foreach(n IN LISTS names)
    list(APPEND problems "${f}: the core names an extension: ${n}")
  endforeach()
endforeach()

list(LENGTH ext_files n_ext)
list(LENGTH core_files n_core)
if(problems)
  list(JOIN problems "\n  " msg)
  message(FATAL_ERROR "include boundary broken (${n_ext} extension files, ${n_core} core files "
                      "checked):\n  ${msg}")
endif()
message(STATUS "include boundary: ${n_ext} extension files and ${n_core} core files keep to ext/")
