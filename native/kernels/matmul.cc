// matmul / matmul_multi: converts the activations once per activation format (Q8_0 / Q8_K /
// rounded f32, per the weight type), then splits the weight rows into chunks that the thread pool
// claims dynamically. Decode (one token) streams each weight row exactly once; prefill walks each
// row chunk over blocks of tokens so the chunk's weights are reused from cache instead of being
// re-read from memory per token. matmul_multi puts the chunks of several weights that share one
// input (q/k/v, gate/up) into a single parallel_for.
#include <algorithm>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/quants.h"

namespace infer {

namespace {
constexpr int64_t kTokenBlock = 32;  // tokens per inner block in prefill (activations stay in L1/L2)
constexpr int kFormats = 6;          // kq::act_format values
constexpr int kMaxJobs = 16;         // weights per pass of matmul_multi (more: further passes)

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

struct planned {
  const tensor_view* w;
  float* y;
  const uint8_t* act;
  size_t act_stride;
  int64_t chunk;  // rows per task
  int first_task;
  int tasks;
};
}  // namespace

void matmul_multi(const matmul_job* jobs, int n_jobs, const float* x, int64_t n_tokens, thread_pool& pool) {
  if (n_tokens <= 0 || n_jobs <= 0) return;
  const int64_t n = jobs[0].w->ne0;
  const int nth = pool.size();
  const int n_here = std::min(n_jobs, kMaxJobs);

  // Activation conversion, once per format (the caller's thread owns the buffers).
  thread_local std::vector<uint8_t> act_buf[kFormats];
  const uint8_t* act_of[kFormats] = {};
  for (int j = 0; j < n_here; j++) {
    if (jobs[j].w->ne0 != n) continue;
    const kq::act_format af = kq::act_format_for(jobs[j].w->type);
    const int fi = static_cast<int>(af);
    if (act_of[fi]) continue;
    if (af == kq::act_format::f32) {
      act_of[fi] = reinterpret_cast<const uint8_t*>(x);
      continue;
    }
    const size_t stride = kq::act_row_bytes(af, n);
    const size_t need = stride * static_cast<size_t>(n_tokens);
    if (act_buf[fi].size() < need) act_buf[fi].resize(need);
    uint8_t* buf = act_buf[fi].data();
    if (n_tokens >= 8 && nth > 1) {
      const int64_t per = round_up(n_tokens, nth * 4) / (nth * 4);
      const int tasks = static_cast<int>((n_tokens + per - 1) / per);
      pool.parallel_for(tasks, [&](int task, int) {
        const int64_t t0 = task * per, t1 = std::min(n_tokens, t0 + per);
        for (int64_t t = t0; t < t1; t++) kq::convert_act_row(af, x + t * n, buf + t * stride, n);
      });
    } else {
      for (int64_t t = 0; t < n_tokens; t++) kq::convert_act_row(af, x + t * n, buf + t * stride, n);
    }
    act_of[fi] = buf;
  }

  // Row chunks: enough tasks for dynamic balancing (a preempted thread does not stall the rest),
  // large enough that claiming a task costs nothing next to the work.
  planned plan[kMaxJobs];
  int n_plan = 0, total = 0;
  int odd[kMaxJobs];
  int n_odd = 0;
  for (int j = 0; j < n_here; j++) {
    const tensor_view& w = *jobs[j].w;
    if (w.ne1 <= 0 || w.ne0 <= 0) continue;
    if (w.ne0 != n) {  // contract violation (another input width): run it on its own afterwards
      odd[n_odd++] = j;
      continue;
    }
    const kq::act_format af = kq::act_format_for(w.type);
    const int64_t rows = w.ne1;
    int64_t chunk;
    if (n_tokens < 4) {
      chunk = std::max<int64_t>(16, round_up(rows / (static_cast<int64_t>(nth) * 16), 4));
    } else {
      // Up to 64 rows while a chunk's weights are reused over several token blocks (they stay in
      // L2). With one token block (a batched decode step) the r4 kernels, which walk each row
      // group once for all the tokens, reads them once whatever the chunk, and a larger chunk
      // spreads its per-call activation preparation over more rows. (The per-row kernels walk the
      // chunk once per group of tokens: for them a small chunk keeps it in L1/L2.)
      const bool r4 = w.type == tensor_type::q8_0_r4 || w.type == tensor_type::q4_k_r4 || w.type == tensor_type::q6_k_r4;
      const int64_t cap = n_tokens <= kTokenBlock && r4 ? 256 : 64;
      chunk = std::max<int64_t>(4, std::min<int64_t>(cap, round_up(rows / (static_cast<int64_t>(nth) * 4), 4)));
    }
    const int tasks = static_cast<int>((rows + chunk - 1) / chunk);
    plan[n_plan++] = {&w, jobs[j].y, act_of[static_cast<int>(af)], kq::act_row_bytes(af, n), chunk, total, tasks};
    total += tasks;
  }

  pool.parallel_for(total, [&](int task, int) {
    int p = 0;
    while (p + 1 < n_plan && task >= plan[p + 1].first_task) p++;
    const planned& pl = plan[p];
    const tensor_view& w = *pl.w;
    const int64_t rows = w.ne1;
    const int64_t r0 = static_cast<int64_t>(task - pl.first_task) * pl.chunk;
    const int nr = static_cast<int>(std::min(pl.chunk, rows - r0));
    const uint8_t* wdata = static_cast<const uint8_t*>(w.data);
    const size_t y_stride = static_cast<size_t>(rows);
    for (int64_t t0 = 0; t0 < n_tokens; t0 += kTokenBlock) {
      const int nt = static_cast<int>(std::min(kTokenBlock, n_tokens - t0));
      kq::gemm_tile(w.type, n, wdata + static_cast<size_t>(r0) * w.row_bytes, w.row_bytes, nr,
                    pl.act + static_cast<size_t>(t0) * pl.act_stride, pl.act_stride, nt,
                    pl.y + static_cast<size_t>(t0) * y_stride + r0, y_stride);
    }
  });
  for (int k = 0; k < n_odd; k++) matmul_multi(&jobs[odd[k]], 1, x, n_tokens, pool);
  // More than kMaxJobs weights: the rest in further passes.
  if (n_jobs > kMaxJobs) matmul_multi(jobs + kMaxJobs, n_jobs - kMaxJobs, x, n_tokens, pool);
}

void matmul(const tensor_view& w, const float* x, int64_t n_tokens, float* y, thread_pool& pool) {
  const matmul_job job{&w, y};
  matmul_multi(&job, 1, x, n_tokens, pool);
}

}  // namespace infer
