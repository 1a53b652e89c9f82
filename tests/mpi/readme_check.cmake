# Fails unless README.md shows the ring task of examples/mpi/ring.cpp verbatim (from its
# comment line to the line before main), so the README's MPI example is the one ctest runs.
file(READ ${SOURCE_DIR}/README.md readme)
file(READ ${SOURCE_DIR}/examples/mpi/ring.cpp example)
string(FIND "${example}" "// Each rank passes a token" a)
string(FIND "${example}" "int main" b)
math(EXPR n "${b} - ${a}")
string(SUBSTRING "${example}" ${a} ${n} part)
string(STRIP "${part}" part)
string(FIND "${readme}" "${part}" pos)
if(a EQUAL -1 OR b EQUAL -1 OR pos EQUAL -1)
  message(FATAL_ERROR "README.md does not show ring() of examples/mpi/ring.cpp verbatim")
endif()
