// locus/mpi/ops.hpp — awaitable point-to-point messages and collectives.
//
//   co_await locus::mpi::send(std::span(&x, 1), /*dest*/ 1, /*tag*/ 7);
//   double y;
//   auto r = locus::mpi::irecv(std::span(&y, 1), 0, 7);   // started now
//   ...                                                  // other work meanwhile
//   locus::mpi::status st = co_await r;                  // suspends this task only
//   co_await locus::mpi::allreduce(std::span(&x, 1), std::span(&sum, 1),
//   locus::mpi::reduce_op::sum);
//
// Every function starts the operation at once (on the caller's thread with direct start, else
// on the communication worker; context.hpp) and returns a request. `co_await request` suspends
// the calling task without blocking its worker (the worker runs other tasks); the task resumes
// in its place when the operation completes (found by an idle worker's poll or by the
// communication worker). Off the workers, request::wait() blocks
// the calling thread instead. send / recv / barrier / ... and their i-forms are the same
// functions: co_await at once for the blocking meaning, keep the request for the other.
//
// Buffers belong to the caller and must stay alive (and, for a send, unchanged) until the
// request completed: co_await it or wait() before they go. A request dropped unawaited does not
// cancel the operation.
//
// Checks (locus::mpi::error, thrown by the call itself): a rank outside [0, size()) (recv:
// or any_source), a tag outside [0, tag_limit()) (recv: or any_tag), a root outside the ranks,
// reduce buffers of different lengths. A received message of another size than the buffer is
// an error of the await (the message names both sizes); so is an MPI error (MPI_Error_string's
// text) and a fault on another rank. Point-to-point messages travel as bytes: a type mismatch
// shows as a size mismatch or goes unseen (as in MPI); distributed graphs (dist_graph.hpp)
// check types.
//
// Collectives follow MPI's rule: every rank starts the same collectives in the same order.
// Two tasks of one rank that start collectives concurrently must be ordered by the program.
#pragma once

#include <atomic>
#include <coroutine>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "locus/dataflow/event.hpp"
#include "locus/mpi/error.hpp"

namespace locus::mpi {

namespace detail {

/// The state shared by a request and the communication worker's record of the operation.
struct completion {
  locus::dataflow::event<status> done;  ///< satisfied by the communication worker
  /// Empty, or the failure (written before `done` fires; read after).
  std::string error;
  int error_origin = -1;
  std::atomic<bool> finished{false};  ///< set after `done` fired (for wait())

  void rethrow() const {
    if (!error.empty()) throw locus::mpi::error(error, error_origin);
  }
};

enum class op_kind : std::uint8_t { send, recv, barrier, bcast, reduce, allreduce };

/// One submission (what the public functions below fill in).
struct op_args {
  op_kind kind = op_kind::send;
  const void* in = nullptr;   ///< send, reduce/allreduce input
  void* out = nullptr;        ///< recv, bcast, reduce/allreduce output
  std::size_t count = 0;      ///< elements (bytes for send/recv/bcast)
  std::size_t out_count = 0;  ///< reduce/allreduce: elements of `out` (must equal count)
  dtype type = dtype::byte;
  std::size_t elem = 1;  ///< bytes per element (for messages about sizes)
  reduce_op rop = reduce_op::sum;
  int peer = 0;  ///< dest / source / root
  int tag = 0;
  const char* what = "";  ///< the API name, for errors
};

}  // namespace detail

class request;

namespace detail {
/// Checks `a`, starts it (direct start) or hands it to the current context's communication
/// worker; throws on bad input. An operation that completed when it was started comes back as
/// a completed request, without a completion.
[[nodiscard]] request submit(const op_args& a);
}  // namespace detail

/// An operation in flight. Awaitable once (in a locus task); wait() off the workers.
///
/// Two forms. An operation still pending when it was started shares a completion (an event the
/// task awaits, the error if any) with the module's record of it. One that completed at its
/// start (direct start: an eager send, a message that was already there; context.hpp) carries
/// its status in the request itself: no completion is allocated, and awaiting it does not
/// suspend (docs/design/0014-mpi.md, "A request that completed at its start").
class [[nodiscard]] request {
 public:
  request() = default;
  explicit request(std::shared_ptr<detail::completion> c) noexcept : m_c(std::move(c)) {}
  /// A request whose operation completed successfully when it was started.
  explicit request(const status& done) noexcept : m_status(done), m_done(true) {}

  [[nodiscard]] bool valid() const noexcept { return m_done || m_c != nullptr; }
  /// True once the operation completed (successfully or not); false for an empty request.
  [[nodiscard]] bool ready() const noexcept {
    return m_done || (m_c != nullptr && m_c->finished.load(std::memory_order_acquire));
  }
  /// Blocks the calling thread, which must not be a locus worker, until completion; returns the
  /// status or throws the operation's error.
  status wait() const;

  /// Refers to the request's completion, not a copy of it: `co_await r` keeps `r` (a variable,
  /// or the temporary of `co_await send(...)`) alive until the expression ends, resumption
  /// included, and a shared_ptr copy cost two atomic read-modify-writes per operation.
  class awaiter {
   public:
    explicit awaiter(const request& r) : m_r(&r) {
      if (r.m_c != nullptr) m_inner.emplace(r.m_c->done.core());
    }
    [[nodiscard]] bool await_ready() const noexcept { return !m_inner || m_inner->await_ready(); }
    template <class P>
    bool await_suspend(std::coroutine_handle<P> h) {
      return m_inner->await_suspend(h);
    }
    status await_resume() const {
      if (!m_inner) {
        if (!m_r->m_done) throw error("locus::mpi: co_await on an empty request", -1);
        return m_r->m_status;
      }
      const status s = m_inner->await_resume();  // event fired: the error (if any) is visible
      m_r->m_c->rethrow();
      return s;
    }

   private:
    using inner =
        decltype(std::declval<const locus::dataflow::event<status>&>().operator co_await());
    const request* m_r;
    std::optional<inner> m_inner;  ///< the completion's event (pending form only)
  };
  awaiter operator co_await() const { return awaiter(*this); }

 private:
  std::shared_ptr<detail::completion> m_c;  ///< the pending form's shared state
  status m_status{};                        ///< the completed form's status
  bool m_done = false;                      ///< the completed form
};

namespace detail {
/// The element type of what std::span(buf) gives (an array, a std::array, a vector, a span).
template <class S>
using element_of = typename decltype(std::span(std::declval<S&>()))::element_type;

template <class T>
constexpr void check_message_type() {
  static_assert(std::is_trivially_copyable_v<std::remove_const_t<T>>,
                "MPI messages carry trivially copyable types");
}
template <class T, std::size_t E>
op_args message(op_kind k, std::span<T, E> buf, int peer, int tag, const char* what) {
  check_message_type<T>();
  op_args a;
  a.kind = k;
  if constexpr (std::is_const_v<T>) {
    a.in = buf.data();
  } else {
    a.in = buf.data();
    a.out = buf.data();
  }
  a.count = buf.size_bytes();
  a.elem = sizeof(T);
  a.peer = peer;
  a.tag = tag;
  a.what = what;
  return a;
}
template <class I, std::size_t EI, class O, std::size_t EO>
op_args reduction(op_kind k, std::span<I, EI> in, std::span<O, EO> out, reduce_op op, int root,
                  const char* what) {
  using T = std::remove_const_t<I>;
  static_assert(std::is_same_v<T, O>, "reduce: the input and output element types differ");
  op_args a;
  a.kind = k;
  a.in = in.data();
  a.out = out.data();
  a.count = in.size();
  a.out_count = out.size();
  a.type = dtype_of<T>();
  a.elem = sizeof(T);
  a.rop = op;
  a.peer = root;
  a.what = what;
  return a;
}
}  // namespace detail

// Buffers are anything std::span(buf) accepts: a span, an array, a std::array, a vector.

/// Sends `buf` to rank `dest` with `tag`.
template <class S>
request isend(S&& buf, int dest, int tag) {
  const auto s = std::span(buf);
  return detail::submit(detail::message(detail::op_kind::send,
                                        std::span<const detail::element_of<S>>(s.data(), s.size()),
                                        dest, tag, "locus::mpi::send"));
}
/// Receives exactly buf.size() elements from `source` (or any_source) with `tag` (or any_tag).
template <class S>
request irecv(S&& buf, int source, int tag) {
  static_assert(!std::is_const_v<detail::element_of<S>>, "recv needs a writable buffer");
  return detail::submit(
      detail::message(detail::op_kind::recv, std::span(buf), source, tag, "locus::mpi::recv"));
}
/// co_await send(...) / recv(...): the blocking forms (the same requests).
template <class S>
request send(S&& buf, int dest, int tag) {
  return isend(std::forward<S>(buf), dest, tag);
}
template <class S>
request recv(S&& buf, int source, int tag) {
  return irecv(std::forward<S>(buf), source, tag);
}

request ibarrier();
inline request barrier() {
  return ibarrier();
}

/// Broadcasts root's `buf` into every other rank's `buf` (the same length everywhere).
template <class S>
request ibcast(S&& buf, int root) {
  static_assert(!std::is_const_v<detail::element_of<S>>, "bcast needs a writable buffer");
  return detail::submit(
      detail::message(detail::op_kind::bcast, std::span(buf), root, 0, "locus::mpi::bcast"));
}
template <class S>
request bcast(S&& buf, int root) {
  return ibcast(std::forward<S>(buf), root);
}

/// Element-wise reduction of every rank's `in` into root's `out` (out is unused elsewhere).
/// `in` and `out` may be the same buffer (MPI_IN_PLACE).
template <class I, class O>
request ireduce(I&& in, O&& out, reduce_op op, int root) {
  return detail::submit(detail::reduction(detail::op_kind::reduce, std::span(in), std::span(out),
                                          op, root, "locus::mpi::reduce"));
}
template <class I, class O>
request reduce(I&& in, O&& out, reduce_op op, int root) {
  return ireduce(std::forward<I>(in), std::forward<O>(out), op, root);
}
/// Element-wise reduction of every rank's `in` into every rank's `out`.
template <class I, class O>
request iallreduce(I&& in, O&& out, reduce_op op) {
  return detail::submit(detail::reduction(detail::op_kind::allreduce, std::span(in), std::span(out),
                                          op, 0, "locus::mpi::allreduce"));
}
template <class I, class O>
request allreduce(I&& in, O&& out, reduce_op op) {
  return iallreduce(std::forward<I>(in), std::forward<O>(out), op);
}

}  // namespace locus::mpi
