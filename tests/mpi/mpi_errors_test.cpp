// Bad input is a clear locus::mpi::error; so is a message of the wrong size.
#include <gtest/gtest.h>

#include <string>

#include "mpi_support.hpp"

namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::run;

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mpi::error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MpiErrors, AnUnknownRankIsNamed) {
  int x = 0;
  const std::string m = message_of([&] { (void)mpi::isend(std::span(&x, 1), ctx().size(), 0); });
  EXPECT_NE(m.find("unknown rank " + std::to_string(ctx().size())), std::string::npos) << m;
  EXPECT_NE(m.find("[0, " + std::to_string(ctx().size()) + ")"), std::string::npos) << m;
  EXPECT_NE(message_of([&] { (void)mpi::irecv(std::span(&x, 1), -7, 0); }).find("unknown rank -7"),
            std::string::npos);
}

TEST(MpiErrors, ATagOutsideTheRangeIsNamed) {
  int x = 0;
  std::string m = message_of([&] { (void)mpi::isend(std::span(&x, 1), 0, -1); });
  EXPECT_NE(m.find("tag -1 is outside the module's range"), std::string::npos) << m;
  m = message_of([&] { (void)mpi::isend(std::span(&x, 1), 0, ctx().tag_limit()); });
  EXPECT_NE(m.find("outside the module's range [0, " + std::to_string(ctx().tag_limit())),
            std::string::npos)
      << m;
}

TEST(MpiErrors, ReduceBuffersOfDifferentLengthsAndUnknownRootsAreErrors) {
  double in[2] = {}, out[3] = {};
  std::string m =
      message_of([&] { (void)mpi::allreduce(std::span(in), std::span(out), mpi::reduce_op::sum); });
  EXPECT_NE(m.find("the input has 2 elements and the output 3"), std::string::npos) << m;
  m = message_of([&] { (void)mpi::bcast(std::span(in), 99); });
  EXPECT_NE(m.find("unknown root 99"), std::string::npos) << m;
}

// Rank r sends 3 ints to r+1, which expects 4 (shorter) and then 2 (longer): both are errors
// of the await that name the sizes.
locus::task<std::string> wrong_sizes(int rank, int size) {
  int three[3] = {1, 2, 3};
  auto s1 = mpi::isend(std::span(three), (rank + 1) % size, 11);
  auto s2 = mpi::isend(std::span(three), (rank + 1) % size, 12);
  int four[4] = {};
  int two[2] = {};
  std::string msgs;
  try {
    co_await mpi::recv(std::span(four), (rank + size - 1) % size, 11);
  } catch (const mpi::error& e) {
    msgs += e.what();
  }
  msgs += " | ";
  try {
    co_await mpi::recv(std::span(two), (rank + size - 1) % size, 12);
  } catch (const mpi::error& e) {
    msgs += e.what();
  }
  co_await s1;
  co_await s2;
  co_return msgs;
}

TEST(MpiErrors, AMessageOfTheWrongSizeIsAnErrorNamingBothSizes) {
  const std::string m = run(wrong_sizes(ctx().rank(), ctx().size()));
  EXPECT_NE(m.find("has 12 bytes; the buffer holds 16 bytes (4 elements of 4 bytes)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("is larger than the buffer of 8 bytes (2 elements of 4 bytes)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("on rank " + std::to_string(ctx().rank())), std::string::npos) << m;
  // MPI's own error (MPI_ERR_TRUNCATE) comes with MPI_Error_string's text.
  EXPECT_NE(m.find("(MPI error: MPI_ERR_TRUNCATE"), std::string::npos) << m;
}

}  // namespace
