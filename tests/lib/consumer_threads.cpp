// A C++17 program that uses libtscaudit as its users do: the installed tscaudit.h, linked with
// what `pkg-config --libs tscaudit` says. lib_test.sh builds it with
// -std=c++17 -Wall -Wextra -pedantic -Werror. It makes the C program's call once (through the
// same checks, consumer_checks.h), then from four threads released at the same moment: the
// header says every function is safe to call from several threads at once, so each must get an
// answer of its own, and keep its own errno and affinity.
//   consumer_threads                          the quick check, once, then from four threads
//   consumer_threads state FIXTURE DIR N      the fixture's checks (consumer_state.h), then a
//                                             writer republishing DIR/v0 .. v(N-1) at FIXTURE
//                                             1,000 times as the tool does (written aside, then
//                                             renamed) while four threads open, ask and order:
//                                             every open finds one whole version
//   consumer_threads causality STATE          two threads pinned on two CPUs hand a token back
//                                             and forth 100,000 times, stamping each receive
//                                             and send: no receive is ever ordered before its
//                                             send by STATE, this machine's published table
// Exit 0: every check held; 1: one failed (each printed on stderr); 2: the test could not run;
// 4: skipped (causality: fewer than two CPUs, no stamp here), with the reason.
#include <pthread.h>
#include <stdio.h>

#include <array>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <iterator>
#include <vector>
#include <mutex>
#include <string>
#include <thread>

#include "consumer_checks.h"
#include "consumer_state.h"

namespace {

constexpr int kThreads = 4;

struct ThreadCall {
  tscaudit_result result{};
  consumer_call call{};
};

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The fixture's checks, then the republishing: `versions` N files differing in bound_ns only.
int mode_state(const std::string& path, const std::string& dir, int versions) {
  consumer_check_fixture(path.c_str());
  std::vector<std::vector<char>> bytes;
  for (int i = 0; i < versions; ++i) {
    bytes.push_back(file_bytes(dir + "/v" + std::to_string(i)));
    if (bytes.back().empty()) {
      std::fprintf(stderr, "cannot read %s/v%d\n", dir.c_str(), i);
      return 2;
    }
  }
  constexpr int kPublications = 1000;
  std::atomic<bool> done{false};
  std::atomic<long> opened{0};
  std::atomic<long> bad{0};
  const std::string aside = path + ".aside";
  std::array<std::thread, kThreads> readers;
  for (std::thread& r : readers) {
    r = std::thread([&] {
      std::vector<int> cpus(CONSUMER_STATE_MAX_CPU);
      while (!done.load()) {
        tscaudit_state* state = nullptr;
        char reason[256];
        const int rc = tscaudit_state_open(path.c_str(), &state, reason);
        if (rc != TSCAUDIT_OK) {
          std::fprintf(stderr, "FAIL: an open during republishing: %s: %s\n", tscaudit_error_name(rc), reason);
          ++bad;
          continue;
        }
        tscaudit_state_info info;
        tscaudit_state_info_init(&info);
        const int irc = tscaudit_state_get_info(state, &info);
        const double version = info.bound_ns - FIXTURE_BOUND_NS;
        int order = 0;
        const int orc = tscaudit_state_order(state, info.reference_cpu, 1, info.reference_cpu, 2, &order);
        if (irc != TSCAUDIT_OK || info.status != TSCAUDIT_STATE_CURRENT || version < 0 || version >= versions ||
            version != std::floor(version) || orc != TSCAUDIT_OK || order != TSCAUDIT_BEFORE) {
          std::fprintf(stderr, "FAIL: a state during republishing: rc %d, status %d, bound %g, order %d: %s\n", irc,
                       info.status, info.bound_ns, order, info.reason);
          ++bad;
        }
        ++opened;
        tscaudit_state_close(state);
      }
    });
  }
  int written = 0;
  for (int i = 0; i < kPublications; ++i) {
    const std::vector<char>& b = bytes[static_cast<std::size_t>(i % versions)];
    FILE* f = std::fopen(aside.c_str(), "wb");
    if (f == nullptr || std::fwrite(b.data(), 1, b.size(), f) != b.size() || std::fclose(f) != 0 ||
        std::rename(aside.c_str(), path.c_str()) != 0) {
      std::perror("republishing");
      break;
    }
    ++written;
  }
  done = true;
  for (std::thread& r : readers) r.join();
  std::printf("republished %d times; %ld opens by %d threads, %ld not one whole version\n", written, opened.load(),
              kThreads, bad.load());
  CHECK(written == kPublications, "republished %d of %d times", written, kPublications);
  CHECK(bad.load() == 0, "%ld opens or states were not one of the published versions", bad.load());
  CHECK(opened.load() > 0, "no reader opened the state while it was republished");
  return consumer_failures == 0 ? 0 : 1;
}

bool pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(static_cast<std::size_t>(cpu), &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

struct Stamp {
  int cpu = -1;
  std::uint64_t counter = 0;
};

/// Two threads on two CPUs pass a token: message m is sent (stamped before the store) and
/// received (stamped after the load that sees it). A receive is never before its send, so the
/// table must never order a send after its receive.
int mode_causality(const std::string& path) {
  consumer_mask allowed = consumer_affinity();
  int cpus[2] = {-1, -1};
  int found = 0;
  for (int c = 0; c < CONSUMER_MAX_CPUS && found < 2; ++c) {
    if (CPU_ISSET_S(static_cast<std::size_t>(c), allowed.size, allowed.set)) cpus[found++] = c;
  }
  CPU_FREE(allowed.set);
  if (found < 2) {
    std::printf("SKIPPED: the process may use one CPU only\n");
    return 4;
  }
  int cpu = 0;
  std::uint64_t counter = 0;
  if (tscaudit_stamp(&cpu, &counter) == TSCAUDIT_ERROR_UNSUPPORTED) {
    std::printf("SKIPPED: tscaudit_stamp is unsupported here (no RDTSCP)\n");
    return 4;
  }
  tscaudit_state* state = nullptr;
  char reason[256];
  int rc = tscaudit_state_open(path.c_str(), &state, reason);
  CHECK(rc == TSCAUDIT_OK, "open %s: %s: %s", path.c_str(), tscaudit_error_name(rc), reason);
  if (rc != TSCAUDIT_OK) return 1;
  tscaudit_state_info info;
  tscaudit_state_info_init(&info);
  rc = tscaudit_state_get_info(state, &info);
  std::printf("state %s: status %d, verdict %d, bound %g ns, %d CPUs: %s\n", path.c_str(), info.status, info.verdict,
              info.bound_ns, info.cpus, info.reason);

  constexpr int kRoundTrips = 100000;
  constexpr std::size_t kMessages = 2 * kRoundTrips;
  std::vector<Stamp> sent(kMessages);
  std::vector<Stamp> received(kMessages);
  std::atomic<long> token{0};  // m + 1: message m was sent
  std::atomic<int> pin_failures{0};
  std::atomic<int> stamp_failures{0};
  // Thread `side` sends the even messages (side 0) or the odd ones (side 1), and receives the
  // others. A long wait yields, so that a descheduled partner on a shared machine runs.
  const auto play = [&](int side) {
    if (!pin_to(cpus[side])) ++pin_failures;
    for (std::size_t m = 0; m < kMessages; ++m) {
      const bool mine = static_cast<int>(m % 2) == side;
      Stamp& s = mine ? sent[m] : received[m];
      if (mine) {
        if (tscaudit_stamp(&s.cpu, &s.counter) != TSCAUDIT_OK) ++stamp_failures;
        token.store(static_cast<long>(m) + 1, std::memory_order_release);
      } else {
        for (long spins = 0; token.load(std::memory_order_acquire) != static_cast<long>(m) + 1; ++spins) {
          if (spins > 1000) sched_yield();
        }
        if (tscaudit_stamp(&s.cpu, &s.counter) != TSCAUDIT_OK) ++stamp_failures;
      }
    }
  };
  std::thread a(play, 0);
  std::thread b(play, 1);
  a.join();
  b.join();
  CHECK(pin_failures.load() == 0 && stamp_failures.load() == 0, "%d pinnings and %d stamps failed",
        pin_failures.load(), stamp_failures.load());
  long before = 0;
  long unordered = 0;
  long after = 0;
  long other_cpu = 0;
  long no_band = 0;
  for (std::size_t m = 0; m < kMessages; ++m) {
    const Stamp& s = sent[m];
    const Stamp& r = received[m];
    if (s.cpu != cpus[m % 2] || r.cpu != cpus[1 - m % 2]) ++other_cpu;
    int order = 0;
    if (tscaudit_state_order(state, s.cpu, s.counter, r.cpu, r.counter, &order) != TSCAUDIT_OK) {
      ++no_band;
    } else if (order == TSCAUDIT_BEFORE) {
      ++before;
    } else if (order == TSCAUDIT_UNORDERED) {
      ++unordered;
    } else {
      ++after;
      if (after <= 5) {
        std::fprintf(stderr, "FAIL: message %zu: sent on CPU %d at %llu, received on CPU %d at %llu: ordered after\n", m,
                     s.cpu, static_cast<unsigned long long>(s.counter), r.cpu,
                     static_cast<unsigned long long>(r.counter));
      }
    }
  }
  std::printf("%zu messages between CPUs %d and %d: send proven before its receive %ld, unordered %ld, "
              "ordered after %ld, no band %ld\n",
              kMessages, cpus[0], cpus[1], before, unordered, after, no_band);
  CHECK(after == 0, "%ld receives ordered before their sends", after);
  CHECK(no_band == 0, "%ld messages between CPUs the table has no band for", no_band);
  CHECK(other_cpu == 0, "%ld stamps name a CPU other than the one their thread was pinned to", other_cpu);
  tscaudit_state_close(state);
  return consumer_failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc == 5 && std::string(argv[1]) == "state") return mode_state(argv[2], argv[3], std::atoi(argv[4]));
  if (argc == 3 && std::string(argv[1]) == "causality") return mode_causality(argv[2]);
  if (argc != 1) {
    std::fprintf(stderr, "usage: %s [state FIXTURE DIR N | causality STATE]\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);
  consumer_check_version();
  consumer_mask allowed = consumer_affinity();

  tscaudit_options options;
  tscaudit_options_init(&options);
  tscaudit_result once{};
  once.size = sizeof once;
  const consumer_call call = consumer_quick_check(&options, &once);
  consumer_print("one call", call.rc, &once);
  consumer_check_call(call, "one call");
  consumer_check_answer(call.rc, &once, allowed, "one call");

  // The threads wait at a gate so that their calls overlap: four checks that each pin threads
  // of their own on the same CPUs.
  std::array<ThreadCall, kThreads> calls{};
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  std::array<std::thread, kThreads> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads[static_cast<std::size_t>(i)] = std::thread([&, i] {
      ThreadCall& mine = calls[static_cast<std::size_t>(i)];
      mine.result.size = sizeof mine.result;
      {
        std::unique_lock<std::mutex> lock(mutex);
        opened.wait(lock, [&] { return open; });
      }
      mine.call = consumer_quick_check(&options, &mine.result);
    });
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  opened.notify_all();
  for (std::thread& t : threads) t.join();

  // Concurrent checks contend for the same CPUs: each must answer (rc 0, one of the verdicts,
  // a reason of its own), though a partner crowded out may make an answer inconclusive.
  for (int i = 0; i < kThreads; ++i) {
    const ThreadCall& c = calls[static_cast<std::size_t>(i)];
    const std::string what = "thread " + std::to_string(i);
    consumer_print(what.c_str(), c.call.rc, &c.result);
    consumer_check_call(c.call, what.c_str());
    CHECK(c.call.rc == TSCAUDIT_OK, "%s: rc %d (%s): %.*s", what.c_str(), c.call.rc, tscaudit_error_name(c.call.rc),
          REASON(&c.result));
    CHECK(c.result.verdict == TSCAUDIT_SYNCHRONIZED || c.result.verdict == TSCAUDIT_NOT_SYNCHRONIZED ||
              c.result.verdict == TSCAUDIT_INCONCLUSIVE,
          "%s: verdict %d", what.c_str(), c.result.verdict);
    CHECK(consumer_reason_ok(&c.result), "%s: the reason is empty, more than one line or not terminated",
          what.c_str());
    CHECK(c.result.size == sizeof c.result, "%s: result.size %zu", what.c_str(), c.result.size);
    if (c.result.verdict != TSCAUDIT_INCONCLUSIVE) consumer_check_answer(c.call.rc, &c.result, allowed, what.c_str());
  }
  CPU_FREE(allowed.set);
  return consumer_failures == 0 ? 0 : 1;
}
