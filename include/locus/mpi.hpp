// locus/mpi.hpp — the optional MPI module (link locus::mpi): a communication worker per rank,
// awaitable messages and collectives, task graphs across ranks. docs/design/0014-mpi.md.
#pragma once

#include "locus/mpi/context.hpp"
#include "locus/mpi/dist_graph.hpp"
#include "locus/mpi/error.hpp"
#include "locus/mpi/ops.hpp"
