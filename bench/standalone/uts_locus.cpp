// locus-uts: uts on locus in a program that links locus and nothing else, for memory figures
// a user's program would see. locus-bench links oneTBB, libgomp, OpenBLAS and StarPU for its
// peers, and a process that loads them starts at about 8.7 MiB of RSS before any kernel runs
// (docs/benchmarks.md, "uts T3L memory"); this one starts where a locus program does.
//
//   locus-uts SIZE [WORKERS]      e.g. locus-uts T3L 2   (sizes as locus-bench's uts kernel)
//
// Prints the tree's counts, whether they match the reference, the time, and the runtime's
// peak frame-stack bytes; measure peak RSS around it (/usr/bin/time -f %M).
#include <locus/locus.hpp>

#include <cstdio>
#include <exception>
#include <string>

#include "../kernels/uts/common.hpp"
#include "../kernels/uts/locus_visit.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s SIZE [WORKERS]   (e.g. T3L 2; default: one worker per core)\n",
                 argv[0]);
    return 2;
  }
  try {
    locus::config cfg;
    if (argc == 3) cfg.workers = locus::parse_workers(argv[2], "WORKERS");
    locus::runtime rt(cfg);
    const uts_kernel::tree_spec& t = uts_kernel::parse(argv[1]);
    uts_kernel::tally got;
    bench::outcome out;
    const bench::stopwatch clock;
    rt.run(uts_kernel::visit_locus(&t, uts_kernel::root(t), &got));
    out.seconds = clock.seconds();
    uts_kernel::check(out, t, got);
    std::printf("%s\n%s in %.3f s on %u workers; peak frame stack %.2f MiB\n", out.detail.c_str(),
                out.verified ? "verified" : "WRONG", out.seconds, rt.num_workers(),
                static_cast<double>(rt.stats().total().peak_stack_bytes) / (1024.0 * 1024.0));
    return out.verified ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "locus-uts: %s\n", e.what());
    return 2;
  }
}
