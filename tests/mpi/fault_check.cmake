# Runs PROGRAM MODE (tests/mpi/fault_main.cpp) with NP ranks under MPIRUN and checks the fault
# protocol: the job fails, ends within BOUND seconds, rank 1 reports SELF (a regex) and every
# other rank r reports a line "rank r ... OTHERS" (unless OTHERS is empty: the other ranks may
# have finished their work before the fault).
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${MPIRUN} --oversubscribe -np ${NP} ${PROGRAM} ${MODE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${BOUND})
string(TIMESTAMP t1 "%s")
math(EXPR elapsed "${t1} - ${t0}")
set(all "${out}\n${err}")
message(STATUS "fault test ${MODE}, ${NP} ranks: exit '${rc}' after ${elapsed} s\n${all}")
if(rc MATCHES "timeout|Process terminated")
  message(FATAL_ERROR "the job did not end within ${BOUND} s after a fault")
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "the job succeeded although rank 1 threw")
endif()
if(NOT all MATCHES "rank 1: error: ${SELF}")
  message(FATAL_ERROR "rank 1 did not report its own exception")
endif()
if(OTHERS STREQUAL "")
  return()
endif()
math(EXPR last "${NP} - 1")
foreach(r RANGE 0 ${last})
  if(NOT r EQUAL 1 AND NOT all MATCHES "rank ${r}[^\n]*${OTHERS}")
    message(FATAL_ERROR "rank ${r} did not report rank 1's failure")
  endif()
endforeach()
