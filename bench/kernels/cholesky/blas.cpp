// cholesky, blas: the vendor baseline, OpenBLAS's own threaded dpotrf on the whole
// column-major matrix, with as many OpenBLAS threads as workers (set in setup, untimed).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome cholesky_blas(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    return cholesky_kernel::setup_whole(size, a.workers);
  };
  const auto body = [](cholesky_kernel::instance& in) {
    const char lower = 'L';
    const int n = static_cast<int>(in.d.n);
    int info = 0;
    dpotrf_(&lower, &n, in.whole.get(), &n, &info);  // info > 0 shows up in the check
  };
  return bench::measure(a.size, setup, body, cholesky_kernel::check_whole);
}
