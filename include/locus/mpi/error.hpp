// locus/mpi/error.hpp — the one exception type of the mpi module, and the wire types.
//
// Every failure the module reports is a locus::mpi::error whose message names the rank that
// saw it and what went wrong: bad input (an unknown rank, a tag outside [0, tag_limit()), a
// buffer of the wrong size), an MPI error (with MPI_Error_string's text), or a fault on another
// rank (origin() is that rank: "locus::mpi: rank 1 failed: <its message>").
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace locus::mpi {

class error : public std::runtime_error {
 public:
  /// `origin`: the rank where the failure happened (this rank for local errors).
  error(const std::string& what, int origin) : std::runtime_error(what), m_origin(origin) {}
  /// The rank where the failure first happened.
  [[nodiscard]] int origin() const noexcept { return m_origin; }

 private:
  int m_origin;
};

/// Wildcards for recv.
inline constexpr int any_source = -1;
inline constexpr int any_tag = -1;

/// What a completed operation reports.
struct status {
  int source = -1;        ///< the sender (recv), or -1
  int tag = -1;           ///< the message's tag (recv), or -1
  std::size_t bytes = 0;  ///< bytes moved by this rank's part of the operation
};

/// Element types the module can hand to MPI (reductions need one of them; point-to-point and
/// bcast move any trivially copyable type as bytes).
enum class dtype : std::uint8_t { byte, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };
/// Reduction operators.
enum class reduce_op : std::uint8_t { sum, prod, min, max };

template <class T>
[[nodiscard]] consteval dtype dtype_of() {
  static_assert(std::is_arithmetic_v<T> || std::is_same_v<T, std::byte>,
                "locus::mpi reductions need an arithmetic element type");
  if constexpr (std::is_same_v<T, std::byte>)
    return dtype::byte;
  else if constexpr (std::is_floating_point_v<T>) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
    return sizeof(T) == 4 ? dtype::f32 : dtype::f64;
  } else {
    constexpr bool s = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1)
      return s ? dtype::i8 : dtype::u8;
    else if constexpr (sizeof(T) == 2)
      return s ? dtype::i16 : dtype::u16;
    else if constexpr (sizeof(T) == 4)
      return s ? dtype::i32 : dtype::u32;
    else
      return s ? dtype::i64 : dtype::u64;
  }
}

}  // namespace locus::mpi
