// Shared helpers for the locality tests: the message of an expected exception.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace locality_test {

/// Runs f, which must throw E; returns the message ("" and a failure if it does not throw E).
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (...) {
    ADD_FAILURE() << "threw an exception of another type";
    return "";
  }
  ADD_FAILURE() << "did not throw";
  return "";
}

}  // namespace locality_test
