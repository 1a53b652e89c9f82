namespace locus::mpi {}
