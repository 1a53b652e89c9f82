# Fails unless README.md contains examples/fib.cpp verbatim (so the README's example is the
# one the tests build and run).
file(READ ${SOURCE_DIR}/README.md readme)
file(READ ${SOURCE_DIR}/examples/fib.cpp example)
string(FIND "${readme}" "${example}" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "README.md does not show examples/fib.cpp verbatim")
endif()
