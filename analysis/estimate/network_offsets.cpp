#include "estimate/network_offsets.hpp"

#include <Eigen/Dense>
#include <limits>

namespace tscaudit {
namespace {

/// Which nodes a chain of edges (in either direction) links to node 0.
std::vector<bool> linked_to_reference(std::size_t n, std::span<const OffsetEdge> edges) {
  std::vector<std::vector<std::size_t>> neighbours(n);
  for (const OffsetEdge& e : edges) {
    if (e.a == e.b) continue;
    neighbours[e.a].push_back(e.b);
    neighbours[e.b].push_back(e.a);
  }
  std::vector<bool> seen(n, false);
  if (n == 0) return seen;
  std::vector<std::size_t> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    for (std::size_t j : neighbours[i]) {
      if (!seen[j]) {
        seen[j] = true;
        stack.push_back(j);
      }
    }
  }
  return seen;
}

}  // namespace

std::vector<double> solve_network_offsets(std::size_t n, std::span<const OffsetEdge> edges) {
  std::vector<double> x(n, std::numeric_limits<double>::quiet_NaN());
  if (n == 0) return x;
  x[0] = 0;
  const std::vector<bool> linked = linked_to_reference(n, edges);
  // Unknowns: the linked nodes other than the reference, in order.
  std::vector<Eigen::Index> column(n, -1);
  Eigen::Index unknowns = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (linked[i]) column[i] = unknowns++;
  }
  if (unknowns == 0) return x;
  Eigen::MatrixXd laplacian = Eigen::MatrixXd::Zero(unknowns, unknowns);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(unknowns);
  for (const OffsetEdge& e : edges) {
    if (e.a == e.b || !linked[e.a] || !linked[e.b]) continue;
    const Eigen::Index ca = column[e.a], cb = column[e.b];  // -1: the reference, fixed at 0
    if (ca >= 0) {
      laplacian(ca, ca) += 1;
      rhs(ca) -= e.theta_ticks;
    }
    if (cb >= 0) {
      laplacian(cb, cb) += 1;
      rhs(cb) += e.theta_ticks;
    }
    if (ca >= 0 && cb >= 0) {
      laplacian(ca, cb) -= 1;
      laplacian(cb, ca) -= 1;
    }
  }
  // Positive definite: every unknown is linked to the fixed reference.
  const Eigen::VectorXd solution = laplacian.ldlt().solve(rhs);
  for (std::size_t i = 1; i < n; ++i) {
    if (column[i] >= 0) x[i] = solution(column[i]);
  }
  return x;
}

}  // namespace tscaudit
