#include "model/cpu_layout.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace infer {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kAlign = 64;

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

// Drops the process's mapping of the whole pages inside [p, p + n): they are file pages nothing
// reads any more, and would otherwise count twice in the resident set beside their repacked copy.
void release_file_pages(const void* p, size_t n) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const auto end = (reinterpret_cast<uintptr_t>(p) + n) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

// One block for every repacked weight, in huge pages where the kernel gives them (a 500 MB model
// then takes a few hundred page faults instead of 128k). Not zeroed: every byte used is written.
weight_buffer new_arena(size_t n) {
  const size_t size = round_up(n, kHugePage);
  void* p = std::aligned_alloc(kHugePage, size);
  if (!p) throw std::bad_alloc();
  madvise(p, size, MADV_HUGEPAGE);
  return weight_buffer(static_cast<uint8_t*>(p));
}

bool env_is(const char* env, const char* value) {
  const char* v = std::getenv(env);
  return v && std::strcmp(v, value) == 0;
}

// The faster CPU layouts. One on by default is switched off by its env variable set to 0, one off
// by default switched on by 1 (A/B).
struct cpu_layout {
  const char* env;
  bool on_by_default;
  bool (*can_repack)(const tensor_view&);
  tensor_view (*repack)(const tensor_view&, void*, thread_pool*);
};
constexpr cpu_layout kLayouts[] = {
    {"INFER_Q8_0_R4", true, can_repack_q8_0_r4, repack_q8_0_r4},
    {"INFER_Q4_K_R4", true, can_repack_q4_k_r4, repack_q4_k_r4},
    // On since its one-token pass (prefetched, two row groups per pass) reached the per-row Q6_K's
    // speed over the output head from memory; batched it is 1.4-1.8x (docs/batched-decode.md).
    {"INFER_Q6_K_R4", true, can_repack_q6_k_r4, repack_q6_k_r4},
};
constexpr int kNumLayouts = sizeof(kLayouts) / sizeof(kLayouts[0]);

// The layout w gets (an index into kLayouts), or -1 for none.
int cpu_layout_of(const tensor_view& w, const bool (&on)[kNumLayouts]) {
  for (int k = 0; k < kNumLayouts; k++)
    if (on[k] && kLayouts[k].can_repack(w)) return k;
  return -1;
}

// The views to repack, each once (a tied output is token_embd's tensor).
std::vector<tensor_view*> repackable(model& m, const bool (&on)[kNumLayouts]) {
  std::vector<tensor_view*> out;
  auto add = [&](tensor_view* w) {
    if (w->data && cpu_layout_of(*w, on) >= 0) out.push_back(w);
  };
  add(&m.w.output);
  for (layer_weights& L : m.w.layers)
    for (tensor_view* w : {&L.wq, &L.wk, &L.wv, &L.wo, &L.w_gate, &L.w_up, &L.w_down}) add(w);
  return out;
}

}  // namespace

size_t use_cpu_layouts(model& m, thread_pool& pool) {
  bool on[kNumLayouts];
  for (int k = 0; k < kNumLayouts; k++)
    on[k] = kLayouts[k].on_by_default ? !env_is(kLayouts[k].env, "0") : env_is(kLayouts[k].env, "1");
  const std::vector<tensor_view*> views = repackable(m, on);
  if (views.empty()) return 0;
  size_t total = 0;
  for (const tensor_view* w : views) total += round_up(static_cast<size_t>(w->ne1) * w->row_bytes, kAlign);
  m.cpu_weights = new_arena(total);
  const bool tied = m.w.output.data == m.w.token_embd.data;
  uint8_t* dst = m.cpu_weights.get();
  for (tensor_view* w : views) {
    const size_t n = static_cast<size_t>(w->ne1) * w->row_bytes;
    const void* from = w->data;
    *w = kLayouts[cpu_layout_of(*w, on)].repack(*w, dst, &pool);
    release_file_pages(from, n);
    dst += round_up(n, kAlign);
  }
  if (tied && m.w.output.data != m.w.token_embd.data) m.w.token_embd = m.w.output;
  return total;
}

}  // namespace infer
