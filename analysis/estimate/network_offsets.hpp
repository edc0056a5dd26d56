// Per-node offsets from pairwise offsets (docs/machine.md §10.2): the least-squares
// x with x_0 = 0 for θ_ab ≈ x_b − x_a over every measured edge, the network effect that
// lets every pair's measurement sharpen every node's offset.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace tscaudit {

/// One measured ordered pair: θ = x_b − x_a, in ticks.
struct OffsetEdge {
  std::size_t a = 0;
  std::size_t b = 0;
  double theta_ticks = 0;
};

/// The least-squares offsets of nodes 0..n-1 relative to node 0 (x_0 = 0). A node that no
/// chain of edges links to node 0 gets NaN. Every edge has weight 1; an edge from a node to
/// itself is ignored. Pure. \pre every edge's a and b are < n.
std::vector<double> solve_network_offsets(std::size_t n, std::span<const OffsetEdge> edges);

}  // namespace tscaudit
