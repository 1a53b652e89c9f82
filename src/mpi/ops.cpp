// src/mpi/ops.cpp — the awaitable operations of ops.hpp: checks on the caller's thread, the
// MPI calls on the communication worker, completion through the request's event.
#include <climits>

#include "engine.hpp"
#include "locus/ext/core.hpp"
#include "locus/mpi/ops.hpp"
#include "locus/runtime.hpp"
#include "poller.hpp"

namespace locus::mpi {

namespace detail {
namespace {

MPI_Datatype to_mpi(dtype t) {
  switch (t) {
    case dtype::byte:
      return MPI_BYTE;
    case dtype::i8:
      return MPI_INT8_T;
    case dtype::u8:
      return MPI_UINT8_T;
    case dtype::i16:
      return MPI_INT16_T;
    case dtype::u16:
      return MPI_UINT16_T;
    case dtype::i32:
      return MPI_INT32_T;
    case dtype::u32:
      return MPI_UINT32_T;
    case dtype::i64:
      return MPI_INT64_T;
    case dtype::u64:
      return MPI_UINT64_T;
    case dtype::f32:
      return MPI_FLOAT;
    case dtype::f64:
      return MPI_DOUBLE;
  }
  return MPI_BYTE;
}

MPI_Op to_mpi(reduce_op o) {
  switch (o) {
    case reduce_op::sum:
      return MPI_SUM;
    case reduce_op::prod:
      return MPI_PROD;
    case reduce_op::min:
      return MPI_MIN;
    case reduce_op::max:
      return MPI_MAX;
  }
  return MPI_SUM;
}

std::string prefix(const op_args& a, int rank) {
  return std::string(a.what) + " on rank " + std::to_string(rank);
}

std::string describe_bytes(std::size_t bytes, std::size_t elem) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes / elem) + " elements of " +
         std::to_string(elem) + " bytes)";
}

/// A user operation: the arguments, and the completion the request shares.
struct user_op final : op {
  user_op(const op_args& a, std::shared_ptr<completion> c) : args(a), done(std::move(c)) {
    awaited = args.kind == op_kind::recv;
  }
  /// A direct start's op, moved from the stack to the heap once its request is known to be
  /// pending (submit): the live request goes with it (the flags are still their defaults).
  user_op(user_op&& o) noexcept : args(o.args), done(std::move(o.done)) {
    awaited = o.awaited;
    req = o.req;
    o.req = MPI_REQUEST_NULL;
  }
  user_op(const user_op&) = delete;
  user_op& operator=(const user_op&) = delete;
  user_op& operator=(user_op&&) = delete;
  ~user_op() override = default;

  int start(engine& e) override {
    if (adopted) return MPI_SUCCESS;  // started by the task (direct); req is live
    const int n = static_cast<int>(args.count);
    const MPI_Comm comm = e.user_comm();
    const int peer = args.peer == any_source ? MPI_ANY_SOURCE : args.peer;
    const int tag = args.tag == any_tag ? MPI_ANY_TAG : args.tag;
    switch (args.kind) {
      case op_kind::send:
        return MPI_Isend(args.in, n, MPI_BYTE, peer, tag, comm, &req);
      case op_kind::recv:
        return MPI_Irecv(args.out, n, MPI_BYTE, peer, tag, comm, &req);
      case op_kind::barrier:
        return MPI_Ibarrier(comm, &req);
      case op_kind::bcast:
        return MPI_Ibcast(args.out, n, MPI_BYTE, peer, comm, &req);
      case op_kind::reduce: {
        const bool in_place = e.rank() == peer && args.in == args.out;
        return MPI_Ireduce(in_place ? MPI_IN_PLACE : args.in, args.out, n, to_mpi(args.type),
                           to_mpi(args.rop), peer, comm, &req);
      }
      case op_kind::allreduce:
        return MPI_Iallreduce(args.in == args.out ? MPI_IN_PLACE : args.in, args.out, n,
                              to_mpi(args.type), to_mpi(args.rop), comm, &req);
    }
    return MPI_ERR_OTHER;
  }

  /// What an operation that ended with (st, err) reports: its status, and the error text
  /// (empty on success) with the rank it names.
  struct outcome {
    status s;
    std::string error;
    int origin = -1;
  };
  [[nodiscard]] outcome judge(const engine& e, const MPI_Status& st, int err) const {
    outcome o;
    status& s = o.s;
    s.bytes = args.kind == op_kind::reduce || args.kind == op_kind::allreduce
                  ? args.count * args.elem
                  : args.count;
    if (args.kind == op_kind::recv) {
      s.source = st.MPI_SOURCE;
      s.tag = st.MPI_TAG;
      if (err == MPI_ERR_TRUNCATE) {
        o.error = prefix(args, e.rank()) + ": the message from rank " + std::to_string(s.source) +
                  " (tag " + std::to_string(s.tag) + ") is larger than the buffer of " +
                  describe_bytes(args.count, args.elem) + " (" + mpi_error_text(err) + ")";
        o.origin = e.rank();
        return o;
      }
      if (err == MPI_SUCCESS) {
        int n = 0;
        MPI_Get_count(&st, MPI_BYTE, &n);
        s.bytes = static_cast<std::size_t>(n);
        if (s.bytes != args.count) {
          o.error = prefix(args, e.rank()) + ": the message from rank " + std::to_string(s.source) +
                    " (tag " + std::to_string(s.tag) + ") has " + std::to_string(s.bytes) +
                    " bytes; the buffer holds " + describe_bytes(args.count, args.elem);
          o.origin = e.rank();
          return o;
        }
      }
    }
    if (err != MPI_SUCCESS) {
      o.error = prefix(args, e.rank()) + ": " + mpi_error_text(err);
      o.origin = e.rank();
    }
    return o;
  }

  bool complete(engine& e, const MPI_Status& st, int err) override {
    outcome o = judge(e, st, err);
    finish(o.s, std::move(o.error), o.origin);
    return false;
  }

  void fail(engine& e, const std::string& why, int origin) override {
    // A fault elsewhere keeps its own text; an MPI error raised when starting gets our prefix.
    finish(status{},
           origin == e.rank() && why.rfind("MPI error", 0) == 0
               ? prefix(args, e.rank()) + ": " + why
               : why,
           origin);
  }

  void finish(const status& s, std::string error, int origin) {
    deliver(*done, s, std::move(error), origin);
  }

  op_args args;
  std::shared_ptr<completion> done;
};

[[noreturn]] void bad_input(const op_args& a, int rank, const std::string& what) {
  throw error(prefix(a, rank) + ": " + what, rank);
}

// On every operation's path: the messages (and their allocations) are built only for an error.
std::string rank_range(int size) {
  return "[0, " + std::to_string(size) + ")";
}

void check(const op_args& a, const engine& e) {
  const int rank = e.rank(), size = e.size();
  switch (a.kind) {
    case op_kind::send:
    case op_kind::recv: {
      const bool wild = a.kind == op_kind::recv;
      if (!(a.peer >= 0 && a.peer < size) && !(wild && a.peer == any_source))
        bad_input(a, rank,
                  "unknown rank " + std::to_string(a.peer) + " (ranks are " + rank_range(size) +
                      (wild ? ", or any_source)" : ")"));
      if (!(a.tag >= 0 && a.tag < e.tag_limit()) && !(wild && a.tag == any_tag))
        bad_input(a, rank,
                  "tag " + std::to_string(a.tag) + " is outside the module's range [0, " +
                      std::to_string(e.tag_limit()) + ")" + (wild ? " (or any_tag)" : ""));
      break;
    }
    case op_kind::reduce:
    case op_kind::allreduce:
      if (a.kind == op_kind::reduce && rank != a.peer) break;  // out unused off the root
      if (a.out_count != a.count)
        bad_input(a, rank,
                  "the input has " + std::to_string(a.count) + " elements and the output " +
                      std::to_string(a.out_count));
      break;
    default:
      break;
  }
  if ((a.kind == op_kind::bcast || a.kind == op_kind::reduce) && !(a.peer >= 0 && a.peer < size))
    bad_input(a, rank,
              "unknown root " + std::to_string(a.peer) + " (ranks are " + rank_range(size) + ")");
  if (a.count > static_cast<std::size_t>(INT_MAX))
    bad_input(a, rank,
              std::to_string(a.count) + " elements exceed MPI's int count (" +
                  std::to_string(INT_MAX) + "); split the message");
}

}  // namespace

request submit(const op_args& a) {
  engine& e = context::current().impl();
  check(a, e);
  if (e.faulted()) throw error(e.fault_message(), e.fault_origin());
  if (e.direct() && (a.kind == op_kind::send || a.kind == op_kind::recv)) {
    // MPI_THREAD_MULTIPLE: start it here and test it once; only a pending one goes to the
    // communication worker (context.hpp, Direct start). Every point-to-point start of this
    // rank takes this path, so MPI's order between one thread's messages is the program's.
    // The op lives on this stack until it is known to be pending (most are done at once: an
    // eager send, a message already there): one allocation per operation fewer. One done at
    // once successfully needs no completion either: its request carries the status (ops.hpp).
    user_op local(a, nullptr);
    if (const int err = local.start(e); err != MPI_SUCCESS) {
      local.done = std::make_shared<completion>();
      local.fail(e, mpi_error_text(err), e.rank());
      return request(std::move(local.done));
    }
    int flag = 0;
    MPI_Status st{};
    const int err = MPI_Test(&local.req, &flag, &st);
    if (flag != 0 || err != MPI_SUCCESS) {
      local.req = MPI_REQUEST_NULL;
      user_op::outcome o = local.judge(e, st, err);
      if (o.error.empty()) return request(o.s);
      auto c = std::make_shared<completion>();
      deliver(*c, o.s, std::move(o.error), o.origin);
      return request(std::move(c));
    }
    // Pending: the live request moves to a heap op, with the completion its request shares. On
    // a locus worker, the runtime's idle workers poll it first (poller.hpp), so the task may
    // resume on a worker without the communication worker; past its window
    // (options::worker_poll, plus worker_poll_per_mib pro rata of the size; or off the workers)
    // the communication worker progresses it.
    auto c = std::make_shared<completion>();
    local.done = c;
    auto* o = new user_op(std::move(local));
    if (const ext::core_ref core = ext::core_ref::current(); core) {
      if (poll_set::instance().add(o, core.raw(), a.count)) return request(std::move(c));
    }
    o->adopted = true;
    e.submit(o);
    return request(std::move(c));
  }
  auto c = std::make_shared<completion>();
  e.submit(new user_op(a, c));
  return request(std::move(c));
}

}  // namespace detail

status request::wait() const {
  if (!valid()) throw error("locus::mpi::request::wait: an empty request", -1);
  if (locus::this_worker::index() >= 0)
    throw error(
        "locus::mpi::request::wait: called on a locus worker, which it would block; co_await "
        "the request instead",
        -1);
  if (m_done) return m_status;
  m_c->finished.wait(false, std::memory_order_acquire);
  m_c->rethrow();
  return m_c->done.get();
}

request ibarrier() {
  detail::op_args a;
  a.kind = detail::op_kind::barrier;
  a.what = "locus::mpi::barrier";
  return detail::submit(a);
}

}  // namespace locus::mpi
