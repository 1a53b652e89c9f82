// The locality side of locus/ext/accounting.hpp.
#include "locus/ext/accounting.hpp"

#include "locus/locality/accountant.hpp"

namespace locus::ext {

void accountant_deleter::operator()(accountant* a) const noexcept {
  delete a;
}

accountant_ptr make_accountant(const topology& topo, const std::vector<std::size_t>& core_of,
                               std::size_t line_bytes, bool cache_model) {
  accountant_options options;
  options.cache_model = cache_model;
  options.line_bytes = line_bytes;
  return accountant_ptr(new accountant(topo, core_of, options));
}

locality_stats accountant_snapshot(const accountant& a) {
  return a.snapshot();
}

void accountant_reset(accountant& a) {
  a.reset();
}

}  // namespace locus::ext
