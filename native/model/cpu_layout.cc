#include "model/cpu_layout.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace infer {

namespace {

// Drops the process's mapping of the whole pages inside [p, p + n): they are file pages nothing
// reads any more, and would otherwise count twice in the resident set beside their repacked copy.
void release_file_pages(const void* p, size_t n) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const auto end = (reinterpret_cast<uintptr_t>(p) + n) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

struct repacker {
  model& m;
  size_t bytes = 0;

  void operator()(tensor_view& w) {
    if (!can_repack_q8_0_r4(w)) return;
    const size_t n = static_cast<size_t>(w.ne1) * w.row_bytes;
    auto buf = std::make_unique<uint8_t[]>(n);
    const tensor_view from = w;
    w = repack_q8_0_r4(from, buf.get());
    release_file_pages(from.data, n);
    m.cpu_weights.push_back(std::move(buf));
    bytes += n;
  }
};

}  // namespace

size_t use_cpu_layouts(model& m) {
  if (const char* v = std::getenv("INFER_Q8_0_R4"); v && std::strcmp(v, "0") == 0) return 0;
  repacker repack{m};
  const bool tied = m.w.tied_output || m.w.output.data == m.w.token_embd.data;
  repack(m.w.output);
  if (tied && m.w.output.type == tensor_type::q8_0_r4) m.w.token_embd = m.w.output;
  for (layer_weights& L : m.w.layers)
    for (tensor_view* w : {&L.wq, &L.wk, &L.wv, &L.wo, &L.w_gate, &L.w_up, &L.w_down})
      if (w->data) repack(*w);
  return repack.bytes;
}

}  // namespace infer
