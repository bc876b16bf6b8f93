// matmul: converts the activations once (Q8_0 / Q8_K / rounded f32, per the weight type), then
// splits the weight rows into chunks that the thread pool claims dynamically. Decode (one token)
// streams each weight row exactly once; prefill walks each row chunk over blocks of tokens so the
// chunk's weights are reused from cache instead of being re-read from memory per token.
#include <algorithm>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/quants.h"

namespace infer {

namespace {
constexpr int64_t kTokenBlock = 32;  // tokens per inner block in prefill (activations stay in L2)

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
}  // namespace

void matmul(const tensor_view& w, const float* x, int64_t n_tokens, float* y, thread_pool& pool) {
  if (n_tokens <= 0 || w.ne1 <= 0 || w.ne0 <= 0) return;
  const kq::act_format af = kq::act_format_for(w.type);
  const int64_t n = w.ne0;
  const size_t act_stride = kq::act_row_bytes(af, n);

  // Activation conversion, once per matmul (the caller's thread owns the buffer).
  thread_local std::vector<uint8_t> act_buf;
  const uint8_t* act;
  if (af == kq::act_format::f32) {
    act = reinterpret_cast<const uint8_t*>(x);
  } else {
    size_t need = act_stride * static_cast<size_t>(n_tokens);
    if (act_buf.size() < need) act_buf.resize(need);
    uint8_t* buf = act_buf.data();
    if (n_tokens >= 8 && pool.size() > 1) {
      const int64_t per = round_up(n_tokens, pool.size() * 4) / (pool.size() * 4);
      const int tasks = static_cast<int>((n_tokens + per - 1) / per);
      pool.parallel_for(tasks, [&](int task, int) {
        const int64_t t0 = task * per, t1 = std::min(n_tokens, t0 + per);
        for (int64_t t = t0; t < t1; t++) kq::convert_act_row(af, x + t * n, buf + t * act_stride, n);
      });
    } else {
      for (int64_t t = 0; t < n_tokens; t++) kq::convert_act_row(af, x + t * n, buf + t * act_stride, n);
    }
    act = buf;
  }

  const int64_t rows = w.ne1;
  const int nth = pool.size();
  const uint8_t* wdata = static_cast<const uint8_t*>(w.data);
  const size_t y_stride = static_cast<size_t>(rows);

  // Row chunks: enough tasks for dynamic balancing (a preempted thread does not stall the rest),
  // large enough that claiming a task costs nothing next to the work.
  int64_t chunk;
  if (n_tokens < 4) {
    chunk = std::max<int64_t>(16, round_up(rows / (static_cast<int64_t>(nth) * 16), 4));
  } else {
    chunk = std::max<int64_t>(4, std::min<int64_t>(64, round_up(rows / (static_cast<int64_t>(nth) * 4), 4)));
  }
  const int tasks = static_cast<int>((rows + chunk - 1) / chunk);
  pool.parallel_for(tasks, [&](int task, int) {
    const int64_t r0 = task * chunk;
    const int nr = static_cast<int>(std::min(chunk, rows - r0));
    for (int64_t t0 = 0; t0 < n_tokens; t0 += kTokenBlock) {
      const int nt = static_cast<int>(std::min(kTokenBlock, n_tokens - t0));
      kq::gemm_tile(w.type, n, wdata + static_cast<size_t>(r0) * w.row_bytes, w.row_bytes, nr,
                    act + static_cast<size_t>(t0) * act_stride, act_stride, nt,
                    y + static_cast<size_t>(t0) * y_stride + r0, y_stride);
    }
  });
}

}  // namespace infer
