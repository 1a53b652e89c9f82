// locus-mpi-fault MODE: a job where rank 1 fails; fault_check.cmake runs it under mpirun and
// requires every rank to report rank 1's failure and the job to end in bounded time.
//   task:  rank 1's task throws after a barrier; rank 0 waits for a message rank 1 never
//          sends; any further rank computes without touching MPI (the watchdog ends it).
//   polled: task, with rank 0's receive polled by its idle worker (options::worker_poll 60 s)
//          when the fault arrives.
//   graph: in a dist_graph, rank 1's task throws; rank 0's task waits for rank 1's value.
//   type:  rank 0 owns key 5 as an int; rank 1 asks for it as a double.
//   size:  rank 0 owns key 7, a datablock of 100 bytes; rank 1 asks for it with 64 bytes.
//   order: rank 1 creates its two dist_graphs in the other order than every other rank.
//   count: rank 1 creates one dist_graph more than rank 0, which waits for rank 0's value.
#include <locus/locus.hpp>
#include <locus/mpi.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace mpi = locus::mpi;

namespace {
locus::task<int> body(int rank) {
  co_await mpi::barrier();
  if (rank == 1) throw std::runtime_error("task failed on purpose");
  if (rank == 0) {
    int never = 0;
    co_await mpi::recv(std::span(&never, 1), 1, 5);
    co_return never;
  }
  // A rank busy with work of its own: it learns of the fault only through the context's
  // watchdog, which ends the job after fault_timeout.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  volatile long spin = 0;
  while (std::chrono::steady_clock::now() < end)
    spin = spin + 1;
  co_return 0;
}
void graph_mode(mpi::context& ctx, locus::runtime& rt) {
  namespace df = locus::dataflow;
  mpi::dist_graph dg(rt, [](std::uint64_t k) { return static_cast<int>(k % 2); });
  if (dg.mine(1)) {
    auto t = dg.task(0, [] { throw std::runtime_error("graph task failed on purpose"); });
    (void)dg.event<int>(1);  // never satisfied: its task threw
  }
  if (dg.mine(0)) {
    auto t = dg.task(1, [](df::edt_args&) {});
    df::add_dependence(dg.event<int>(1), t, 0);
  }
  (void)ctx;
  dg.wait();
}

void size_mode(locus::runtime& rt) {
  namespace df = locus::dataflow;
  mpi::dist_graph dg(rt, [](std::uint64_t) { return 0; });
  if (dg.mine(7)) {
    dg.event<df::datablock>(7).satisfy(df::datablock::create(100));
  } else {
    auto t = dg.task(1, [](df::edt_args&) {});
    df::add_dependence(dg.event<df::datablock>(7, 64), t, 0);
  }
  dg.wait();
}

void type_mode(locus::runtime& rt) {
  namespace df = locus::dataflow;
  mpi::dist_graph dg(rt, [](std::uint64_t) { return 0; });
  if (dg.mine(5)) {
    dg.event<int>(5).satisfy(5);
  } else {
    auto t = dg.task(1, [](df::edt_args&) {});
    df::add_dependence(dg.event<double>(5), t, 0);
  }
  dg.wait();
}
/// One dist_graph's work: rank 0 owns key 1; every other rank reads it in a task.
void exchange(mpi::dist_graph& dg, int value) {
  namespace df = locus::dataflow;
  if (dg.mine(1)) {
    dg.event<int>(1).satisfy(value);
  } else {
    auto t = dg.task(1, [](df::edt_args&) {});
    df::add_dependence(dg.event<int>(1), t, 0);
  }
  dg.wait();
}

void order_mode(mpi::context& ctx, locus::runtime& rt) {
  const auto owner = [](std::uint64_t) { return 0; };
  const auto first = [&] {
    mpi::dist_graph dg(rt, owner);  // created here: its identity is this line
    exchange(dg, 1);
  };
  const auto second = [&] {
    mpi::dist_graph dg(rt, owner);
    exchange(dg, 2);
  };
  if (ctx.rank() == 1) {
    second();
    first();
  } else {
    first();
    second();
  }
}

void count_mode(mpi::context& ctx, locus::runtime& rt) {
  const auto owner = [](std::uint64_t) { return 0; };
  {
    mpi::dist_graph dg(rt, owner);
    exchange(dg, 1);
  }
  if (ctx.rank() == 1) {
    mpi::dist_graph dg(rt, owner);  // rank 0 never creates it: it ends instead
    exchange(dg, 2);
  }
}
}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "task";
  mpi::options o;
  o.fault_timeout = std::chrono::milliseconds(3000);
  // polled: the task mode with rank 0's pending receive left to its idle worker's polls (direct
  // start) until the fault takes it from there: it must fail like one the communication worker
  // holds.
  if (mode == "polled") o.worker_poll = std::chrono::seconds(60);
  mpi::context ctx(argc, argv, o);
  locus::config cfg = locus::config::from_env();
  cfg.pin = false;
  locus::runtime rt(cfg);
  try {
    if (mode == "graph")
      graph_mode(ctx, rt);
    else if (mode == "type")
      type_mode(rt);
    else if (mode == "size")
      size_mode(rt);
    else if (mode == "order")
      order_mode(ctx, rt);
    else if (mode == "count")
      count_mode(ctx, rt);
    else
      ctx.run(rt, body(ctx.rank()));
    std::printf("rank %d: finished without an error\n", ctx.rank());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: error: %s\n", ctx.rank(), e.what());
    return 1;
  }
}
