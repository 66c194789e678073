#pragma once
// Expected<T>: a value or a Diagnostic, for stage functions that can fail on bad input.
// A minimal subset of C++23 std::expected (not available in GCC 12).

#include <gapscan/core/diagnostic.hpp>

#include <cassert>
#include <utility>
#include <variant>

namespace gapscan {

/// Wraps the error alternative so that Expected<Diagnostic> stays unambiguous.
struct Unexpected {
  Diagnostic error;
};

inline Unexpected unexpected(Diagnostic diagnostic) { return Unexpected{std::move(diagnostic)}; }

template <typename T>
class [[nodiscard]] Expected {
 public:
  // Implicit on purpose, like std::expected: `return value;` and `return unexpected(e);`.
  // NOLINTNEXTLINE(google-explicit-constructor)
  Expected(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
  // NOLINTNEXTLINE(google-explicit-constructor)
  Expected(Unexpected error) : m_state(std::in_place_index<1>, std::move(error.error)) {}

  bool has_value() const { return m_state.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & {
    assert(has_value());
    return std::get<0>(m_state);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(m_state);
  }
  T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(m_state));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Diagnostic& error() const {
    assert(!has_value());
    return std::get<1>(m_state);
  }

 private:
  std::variant<T, Diagnostic> m_state;
};

/// Expected<void>: success or a Diagnostic.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  // NOLINTNEXTLINE(google-explicit-constructor)
  Expected(Unexpected error) : m_error(std::move(error.error)), m_failed(true) {}

  bool has_value() const { return !m_failed; }
  explicit operator bool() const { return has_value(); }
  const Diagnostic& error() const {
    assert(m_failed);
    return m_error;
  }

 private:
  Diagnostic m_error;
  bool m_failed = false;
};

}  // namespace gapscan
