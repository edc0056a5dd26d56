// The one place where a runtime choice of read variant becomes a template argument: the
// variants themselves (names, architectures, properties) are the analysis's
// (core/read_variant.hpp), their instruction sequences the policies of this machine's
// architecture (platform/counter.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/read_variant.hpp"
#include "platform/counter.hpp"

namespace tscaudit {

using Variant = ReadVariant;

/// The variants this binary can execute: those of the architecture it was built for, in
/// interface order, the plain read first.
inline constexpr std::span<const Variant> kHostVariants = variants_of(counter::kHostArch);

namespace detail {

template <class F, class P, class... Rest>
constexpr decltype(auto) visit_policy(Variant v, F&& f, counter::PolicyList<P, Rest...> /*unused*/) {
  if (v == P::variant) return std::forward<F>(f)(P{});
  if constexpr (sizeof...(Rest) > 0) {
    return visit_policy(v, std::forward<F>(f), counter::PolicyList<Rest...>{});
  } else {
    throw UnsupportedError("variant " + std::string(variant_name(v)) + " reads the counter of " +
                           std::string(arch_name(variant_arch(v))) + "; this binary runs on " +
                           std::string(arch_name(counter::kHostArch)));
  }
}

template <class... P>
constexpr bool policies_are_host_variants(counter::PolicyList<P...> /*unused*/) {
  constexpr std::array<Variant, sizeof...(P)> variants{P::variant...};
  constexpr std::array<std::string_view, sizeof...(P)> names{P::name...};
  if (kHostVariants.size() != variants.size()) return false;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (variants[i] != kHostVariants[i] || names[i] != variant_name(variants[i])) return false;
  }
  return true;
}

}  // namespace detail

/// Calls `f(Policy{})` with the policy type of `v`. Every runtime-to-template switch over
/// variants goes through here. \throws UnsupportedError when `v` is another
/// architecture's (the command line refuses those first, with exit 2).
template <class F>
constexpr decltype(auto) visit_variant(Variant v, F&& f) {
  return detail::visit_policy(v, std::forward<F>(f), counter::Policies{});
}

// The policies are the host's variants, in interface order, each named as its variant.
static_assert(detail::policies_are_host_variants(counter::Policies{}));
static_assert(std::ranges::all_of(kHostVariants, [](Variant v) {
  return visit_variant(v, [](auto policy) { return decltype(policy)::variant; }) == v;
}));

/// The position of `v` in kHostVariants, which is the policies' order: the index of the
/// tables of loops (exchange.cpp, monitor_threads.cpp). \throws UnsupportedError as
/// visit_variant does.
inline std::size_t host_variant_index(Variant v) {
  return visit_variant(v, []<class P>(P /*unused*/) {
    return static_cast<std::size_t>(std::ranges::find(kHostVariants, P::variant) - kHostVariants.begin());
  });
}

/// True when `v` is a variant of this binary's architecture.
constexpr bool is_host_variant(Variant v) { return variant_arch(v) == counter::kHostArch; }

}  // namespace tscaudit
