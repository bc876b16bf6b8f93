// INFER_STEP_PROFILE=1: one stderr line per scheduler step, saying where its wall time went
// (planning, the forward pass, sampling, emitting tokens) and how long the scheduler spent
// between the end of one step and the start of the next (event delivery, stats, waking up).
// Off (one cached getenv) it costs a branch per mark.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace infer {

class step_profile {
 public:
  enum phase { plan, forward, sample, emit, n_phases };

  static bool enabled() {
    static const bool on = [] {
      const char* e = std::getenv("INFER_STEP_PROFILE");
      return e && *e && *e != '0';
    }();
    return on;
  }

  void begin() {
    if (!enabled()) return;
    start_ = last_ = clock::now();
    for (double& a : acc_) a = 0;
  }
  void mark(phase p) {
    if (!enabled()) return;
    const auto now = clock::now();
    acc_[p] += ms(now - last_);
    last_ = now;
  }
  // rows: tokens in the pass; decode_rows: of them, decoding sequences' input tokens; seqs:
  // sequences that got logits.
  void end(int rows, int decode_rows, int seqs) {
    if (!enabled()) return;
    const auto now = clock::now();
    const double gap = prev_end_ == clock::time_point{} ? 0.0 : ms(start_ - prev_end_);
    std::fprintf(stderr, "step rows %d decode %d seqs %d: total %.3f ms; plan %.3f, forward %.3f, sample %.3f, emit %.3f, between steps %.3f\n",
                 rows, decode_rows, seqs, ms(now - start_), acc_[plan], acc_[forward], acc_[sample], acc_[emit], gap);
    prev_end_ = now;
  }

 private:
  using clock = std::chrono::steady_clock;
  static double ms(clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }
  clock::time_point start_, last_, prev_end_;
  double acc_[n_phases] = {};
};

}  // namespace infer
