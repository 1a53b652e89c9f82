// The per-frame strategy slot's single owner (locus/ext/core.hpp, "per-frame strategy slot";
// docs/design/0011, "Per-frame state").
#include <mutex>
#include <stdexcept>
#include <string>

#include "locus/ext/core.hpp"
#include "locus/ext/scheduler.hpp"
#include "runtime_state.hpp"

namespace locus::ext {

namespace {
/// The custom spawn rule owns the slot from the start if it uses it. Under slot_mutex.
void adopt_rule(detail::runtime_state& s) {
  if (s.slot_owner != nullptr || s.spawn == nullptr || !s.spawn->uses_frame_slot()) return;
  s.slot_owner = s.spawn.get();
  // Appended piece by piece: gcc 12's -Wrestrict misfires on "literal" + std::string.
  s.slot_owner_name = "the spawn rule \"";
  s.slot_owner_name.append(s.spawn->name()).append("\"");
}
}  // namespace

void core_ref::claim_frame_slot(const void* owner, std::string_view who) const {
  std::lock_guard lk(m_s->slot_mutex);
  adopt_rule(*m_s);
  if (m_s->slot_owner == owner) return;
  if (m_s->slot_owner == nullptr) {
    m_s->slot_owner = owner;
    m_s->slot_owner_name = std::string(who);
    return;
  }
  std::string why = "locus::ext: ";
  why.append(who)
      .append(" needs the frames' strategy slot, which ")
      .append(m_s->slot_owner_name)
      .append(
          " already owns on this runtime; the two cannot be combined (one owner per runtime, "
          "docs/design/0011)");
  throw std::logic_error(why);
}

std::string core_ref::frame_slot_owner() const {
  std::lock_guard lk(m_s->slot_mutex);
  adopt_rule(*m_s);
  return m_s->slot_owner_name;
}

}  // namespace locus::ext
