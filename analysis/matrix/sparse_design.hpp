// The sparse design: which unordered pairs a plan measures when every ordered pair cannot
// get enough rounds (plan_choice.hpp decides when). Pure and deterministic: the same CPUs in
// the same topology order give the same pairs on every machine (docs/machine.md, "Sparse
// designs").
//
// The pairs, each measured in both roles:
//  1. Local groups. The CPUs are cut into local groups: the L3 domains where the topology
//     has them, else the packages, else one group; a group of more than kSparseGroupCpus
//     CPUs is cut, at core boundaries where cores are known, into near-equal parts of at
//     most that many. Every pair inside each local group is measured: the shortest paths,
//     the tightest bands.
//  2. Other groups. Every CPU gets partners in other local groups: with up to
//     kSparseCrossGroups other groups, max(2, ceil(kSparseCrossPartners / others)) partners in
//     each (at most the group's size); with more, 2 partners in each of kSparseCrossGroups
//     groups, the groups turning with the CPU's rank so that the CPUs of one group reach
//     every other group between them. Within a partner group the partners are spread: the
//     CPU of rank r takes ranks (r + t + j·s/k) mod s, t the groups' distance, s the group's
//     size, j = 0..k-1, so every CPU of the partner group is linked to several CPUs of this one.
//  3. Packages. Every CPU gets kSparsePackagePartners partners in every other package, at
//     its own rank there and half a package further.
//  4. Chords. kSparseChordsPerCpu partners per CPU drawn from a fixed seed (std::mt19937_64,
//     kSparseSeed, value mod n): short cuts between arbitrary places.
// A single CPU off from the rest fails every pair it is in; it has partners in its own group,
// in several other groups and in every other package, and each of them passes pairs with
// other CPUs, so the failures point at that CPU alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"

namespace tscaudit {

inline constexpr std::size_t kSparseGroupCpus = 16;
inline constexpr std::size_t kSparseCrossGroups = 4;
inline constexpr std::size_t kSparseCrossPartners = 8;
inline constexpr std::size_t kSparsePackagePartners = 2;
inline constexpr std::size_t kSparseChordsPerCpu = 2;
inline constexpr std::uint64_t kSparseSeed = 0x7473637379'6e63ULL;  // "tscaudit"

/// Where each local group begins (indexes into order.cpus, the first 0): see step 1 above.
/// \param max_cpus  the largest group, >= 1
std::vector<std::size_t> local_group_starts(const OrderedCpus& order, std::size_t max_cpus = kSparseGroupCpus);

struct SparseDesign {
  std::vector<std::size_t> group_starts;    // local groups
  std::vector<std::size_t> package_starts;  // packages ({0} where the topology has none)
  std::vector<IndexPair> pairs;             // unordered, first < second, sorted, distinct
};

/// The sparse design of `order`'s CPUs (see the top of this file).
/// \pre order.cpus.size() >= 2
SparseDesign sparse_design(const OrderedCpus& order);

}  // namespace tscaudit
