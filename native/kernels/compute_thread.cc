#include "kernels/compute_thread.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#endif

namespace infer {

#if defined(__linux__) && defined(SYS_sched_setattr)
namespace {
// The first version of struct sched_attr (SCHED_ATTR_SIZE_VER0); glibc 2.36 has no wrapper.
struct sched_attr_v0 {
  uint32_t size;
  uint32_t sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime;
  uint64_t sched_deadline;
  uint64_t sched_period;
};
// Several times the default base slice (0.75 ms × (1 + log2 CPUs)): long next to the event loop's
// bursts (tens of µs), short next to anything a person would notice.
constexpr uint64_t kComputeSliceUs = 4000;

// INFER_COMPUTE_SLICE_US overrides the slice (0: leave the thread as it is), for A/B benchmarks.
uint64_t slice_us() {
  const char* env = std::getenv("INFER_COMPUTE_SLICE_US");
  if (!env || !*env) return kComputeSliceUs;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  return (end && *end == '\0') ? static_cast<uint64_t>(v) : kComputeSliceUs;
}

// INFER_COMPUTE_POLICY=batch|idle runs the compute threads as SCHED_BATCH (fair class, nice kept,
// but a waking batch thread never preempts the running one) or SCHED_IDLE (weight 3, preempted
// by any other thread that wakes), for A/B benchmarks against nice values. Unset: SCHED_OTHER.
constexpr uint32_t kSchedOther = 0, kSchedBatch = 3, kSchedIdle = 5;
uint32_t compute_policy() {
  const char* env = std::getenv("INFER_COMPUTE_POLICY");
  if (!env) return kSchedOther;
  if (std::strcmp(env, "batch") == 0) return kSchedBatch;
  if (std::strcmp(env, "idle") == 0) return kSchedIdle;
  return kSchedOther;
}
}  // namespace

void mark_compute_thread(int nice_increment) {
  const uint64_t us = slice_us();
  const uint32_t policy = compute_policy();
  if (nice_increment < 0) nice_increment = 0;
  if (nice_increment > kMaxComputeNice) nice_increment = kMaxComputeNice;
  if (us == 0 && nice_increment == 0 && policy == kSchedOther) return;
  const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  if (errno != 0) return;
  const int target = nice + nice_increment > 19 ? 19 : nice + nice_increment;
  sched_attr_v0 attr{};
  attr.size = sizeof(attr);
  attr.sched_policy = policy;
  attr.sched_nice = target;
  attr.sched_runtime = us * 1000;  // the kernel clamps it to 0.1–100 ms; 0 keeps the default slice
  // Older kernels ignore sched_runtime for SCHED_OTHER; if the call is refused, the nice value
  // alone still applies.
  if (syscall(SYS_sched_setattr, tid, &attr, 0u) != 0 && target != nice)
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(tid), target);
}

bool mark_latency_thread(unsigned slice_us) {
  const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  if (errno != 0) return false;
  sched_attr_v0 attr{};
  attr.size = sizeof(attr);
  attr.sched_policy = 0;  // SCHED_OTHER
  attr.sched_nice = nice;
  attr.sched_runtime = static_cast<uint64_t>(slice_us) * 1000;
  return syscall(SYS_sched_setattr, tid, &attr, 0u) == 0;
}
#else
void mark_compute_thread(int) {}
bool mark_latency_thread(unsigned) { return false; }
#endif

}  // namespace infer
