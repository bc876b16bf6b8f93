// GGUF reader tests on files the test writes: every metadata type (nested arrays too), tensors of
// every supported type, custom alignment; then corrupted variants (truncated at every offset, bad
// magic/version/type, misaligned or out-of-range offsets, overlapping tensors, absurd counts),
// each of which must produce an error message and never crash.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gguf/gguf_file.h"
#include "tests/ref_quant.h"
#include "tests/test_main.h"

using infer::gguf_file;
using infer::gguf_type;
using infer::tensor_type;

namespace {

class writer {
 public:
  std::vector<uint8_t> b;
  template <typename T>
  void put(T v) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof(T));
  }
  void str(const std::string& s) {
    put<uint64_t>(s.size());
    b.insert(b.end(), s.begin(), s.end());
  }
  void key(const std::string& k, gguf_type t) {
    str(k);
    put<uint32_t>(static_cast<uint32_t>(t));
  }
  void pad(size_t align) {
    while (b.size() % align) b.push_back(0);
  }
};

struct tensor_spec {
  std::string name;
  tensor_type type;
  std::vector<int64_t> ne;
  std::vector<uint8_t> data;
};

struct file_parts {
  std::vector<uint8_t> bytes;
  size_t info_start = 0;   // first tensor info
  size_t data_start = 0;   // tensor data section
  std::vector<size_t> type_field_pos;    // file offset of each tensor's u32 type
  std::vector<size_t> offset_field_pos;  // file offset of each tensor's u64 offset
};

std::vector<tensor_spec> sample_tensors(std::mt19937& rng) {
  std::vector<tensor_spec> ts;
  const tensor_type types[] = {tensor_type::f32,  tensor_type::f16,  tensor_type::bf16,
                               tensor_type::q8_0, tensor_type::q4_0, tensor_type::q5_0,
                               tensor_type::q4_k, tensor_type::q5_k, tensor_type::q6_k};
  for (tensor_type t : types) {
    const int64_t n = infer::tensor_type_block_elems(t) == 256 ? 256 : 64;
    const int64_t rows = 3;
    tensor_spec s;
    s.name = std::string("blk.0.") + infer::tensor_type_name(t) + ".weight";
    s.type = t;
    s.ne = {n, rows};
    s.data = infer_test::random_blocks(t, rows, n, rng);
    ts.push_back(std::move(s));
  }
  tensor_spec v;  // a 1-D and a 3-D tensor
  v.name = "output_norm.weight";
  v.type = tensor_type::f32;
  v.ne = {7};
  v.data = infer_test::random_blocks(tensor_type::f32, 1, 7, rng);
  ts.push_back(std::move(v));
  tensor_spec c;
  c.name = "cube";
  c.type = tensor_type::f16;
  c.ne = {4, 3, 2};
  c.data = infer_test::random_blocks(tensor_type::f16, 6, 4, rng);
  ts.push_back(std::move(c));
  return ts;
}

file_parts build(const std::vector<tensor_spec>& ts, uint32_t alignment, bool write_alignment) {
  writer w;
  file_parts fp;
  w.put<uint32_t>(0x46554747);
  w.put<uint32_t>(3);
  w.put<uint64_t>(ts.size());
  const uint64_t n_kv = 17 + (write_alignment ? 1 : 0);
  w.put<uint64_t>(n_kv);
  w.key("general.architecture", gguf_type::string); w.str("llama");
  w.key("t.u8", gguf_type::u8); w.put<uint8_t>(200);
  w.key("t.i8", gguf_type::i8); w.put<int8_t>(-100);
  w.key("t.u16", gguf_type::u16); w.put<uint16_t>(60000);
  w.key("t.i16", gguf_type::i16); w.put<int16_t>(-30000);
  w.key("t.u32", gguf_type::u32); w.put<uint32_t>(4000000000u);
  w.key("t.i32", gguf_type::i32); w.put<int32_t>(-2000000000);
  w.key("t.f32", gguf_type::f32); w.put<float>(1.5f);
  w.key("t.bool", gguf_type::boolean); w.put<uint8_t>(1);
  w.key("t.u64", gguf_type::u64); w.put<uint64_t>(1ull << 40);
  w.key("t.i64", gguf_type::i64); w.put<int64_t>(-(1ll << 40));
  w.key("t.f64", gguf_type::f64); w.put<double>(2.25);
  w.key("t.empty", gguf_type::string); w.str("");
  w.key("t.strings", gguf_type::array); w.put<uint32_t>(8); w.put<uint64_t>(3);
  w.str("a"); w.str("héllo"); w.str("");
  w.key("t.i32s", gguf_type::array); w.put<uint32_t>(5); w.put<uint64_t>(4);
  for (int32_t v : {1, -2, 3, -4}) w.put<int32_t>(v);
  w.key("t.f32s", gguf_type::array); w.put<uint32_t>(6); w.put<uint64_t>(2);
  w.put<float>(0.5f); w.put<float>(-1.0f);
  // Nested: array of 2 arrays: [u8 x2], [string x1]
  w.key("t.nested", gguf_type::array); w.put<uint32_t>(9); w.put<uint64_t>(2);
  w.put<uint32_t>(0); w.put<uint64_t>(2); w.put<uint8_t>(7); w.put<uint8_t>(9);
  w.put<uint32_t>(8); w.put<uint64_t>(1); w.str("deep");
  if (write_alignment) {
    w.key("general.alignment", gguf_type::u32);
    w.put<uint32_t>(alignment);
  }
  fp.info_start = w.b.size();
  uint64_t off = 0;
  std::vector<uint64_t> offsets;
  for (const auto& t : ts) {
    w.str(t.name);
    w.put<uint32_t>(static_cast<uint32_t>(t.ne.size()));
    for (int64_t d : t.ne) w.put<uint64_t>(static_cast<uint64_t>(d));
    fp.type_field_pos.push_back(w.b.size());
    w.put<uint32_t>(static_cast<uint32_t>(t.type));
    fp.offset_field_pos.push_back(w.b.size());
    w.put<uint64_t>(off);
    offsets.push_back(off);
    off += (t.data.size() + alignment - 1) / alignment * alignment;
  }
  w.pad(alignment);
  fp.data_start = w.b.size();
  for (size_t i = 0; i < ts.size(); i++) {
    w.b.insert(w.b.end(), ts[i].data.begin(), ts[i].data.end());
    if (i + 1 < ts.size()) w.pad(alignment);
  }
  fp.bytes = std::move(w.b);
  return fp;
}

// Parses a copy of exactly `size` bytes (heap block of that size, so a sanitizer build catches
// any read past the end).
std::unique_ptr<gguf_file> parse(const std::vector<uint8_t>& bytes, size_t size, std::string* err) {
  static std::vector<std::unique_ptr<uint8_t[]>> keep;  // data must outlive the gguf_file
  keep.clear();
  std::unique_ptr<uint8_t[]> copy(new uint8_t[size ? size : 1]);
  if (size) std::memcpy(copy.get(), bytes.data(), size);
  auto f = gguf_file::from_memory(copy.get(), size, err);
  keep.push_back(std::move(copy));
  return f;
}

template <typename T>
void poke(std::vector<uint8_t>& b, size_t pos, T v) {
  std::memcpy(b.data() + pos, &v, sizeof(T));
}

std::string temp_path(const char* tag) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/infer_gguf_test_" + std::to_string(getpid()) + "_" + tag + ".gguf";
}

}  // namespace

TEST(gguf_reads_every_metadata_type_and_tensor) {
  std::mt19937 rng(10);
  auto ts = sample_tensors(rng);
  for (uint32_t alignment : {32u, 64u, 8u}) {
    auto fp = build(ts, alignment, alignment != 32);
    const std::string path = temp_path("valid");
    {
      std::ofstream o(path, std::ios::binary);
      o.write(reinterpret_cast<const char*>(fp.bytes.data()), static_cast<std::streamsize>(fp.bytes.size()));
    }
    std::string err;
    auto f = gguf_file::open(path, &err);
    std::remove(path.c_str());
    CHECK(f != nullptr, "open failed: " + err);
    if (!f) continue;
    CHECK(f->version() == 3, "version");
    CHECK(f->alignment() == alignment, "alignment");
    CHECK(f->data_offset() == fp.data_start, "data offset");
    CHECK(f->get_string("general.architecture") == std::string_view("llama"), "arch");
    CHECK(f->get_i64("t.u8") == 200 && f->get_i64("t.i8") == -100, "u8/i8");
    CHECK(f->get_i64("t.u16") == 60000 && f->get_i64("t.i16") == -30000, "u16/i16");
    CHECK(f->get_u32("t.u32") == 4000000000u && f->get_i64("t.i32") == -2000000000, "u32/i32");
    CHECK(!f->get_u32("t.i32").has_value(), "negative value is not a u32");
    CHECK(f->get_f32("t.f32") == 1.5f && f->get_f64("t.f64") == 2.25, "floats");
    CHECK(f->get_bool("t.bool") == true, "bool");
    CHECK(f->get_i64("t.u64") == (1ll << 40) && f->get_i64("t.i64") == -(1ll << 40), "64-bit");
    CHECK(f->get_string("t.empty") == std::string_view(""), "empty string");
    CHECK(!f->get_string("t.u8").has_value() && !f->get_i64("missing").has_value(), "type mismatch / missing");
    const auto* s = f->get_array("t.strings");
    CHECK(s && s->elem_type == gguf_type::string && s->count == 3 && s->strings.size() == 3 &&
              s->strings[1] == "héllo" && s->strings[2].empty(),
          "string array");
    auto iv = f->get_array("t.i32s") ? f->get_array("t.i32s")->to_i32_vector() : std::nullopt;
    CHECK(iv && *iv == std::vector<int32_t>({1, -2, 3, -4}), "i32 array");
    auto fv = f->get_array("t.f32s") ? f->get_array("t.f32s")->to_f32_vector() : std::nullopt;
    CHECK(fv && *fv == std::vector<float>({0.5f, -1.0f}), "f32 array");
    const auto* nest = f->get_array("t.nested");
    CHECK(nest && nest->items.size() == 2 && nest->items[0].int_at(1) == 9 && nest->items[1].strings.size() == 1 &&
              nest->items[1].strings[0] == "deep",
          "nested array");
    CHECK(f->metadata().size() == 17 + (alignment != 32 ? 1u : 0u), "metadata count");
    CHECK(f->tensors().size() == ts.size(), "tensor count");
    for (const auto& t : ts) {
      const auto* ti = f->tensor(t.name);
      CHECK(ti != nullptr, "missing tensor " + t.name);
      if (!ti) continue;
      CHECK(ti->type == t.type && ti->n_dims == t.ne.size() && ti->ne[0] == t.ne[0], "info of " + t.name);
      CHECK(ti->n_bytes == t.data.size(), "bytes of " + t.name);
      CHECK(ti->offset % alignment == 0, "aligned " + t.name);
      CHECK(std::memcmp(f->tensor_data(*ti), t.data.data(), t.data.size()) == 0, "data of " + t.name);
      auto v = f->view(*ti);
      CHECK(v.ne1 == ti->n_rows() && v.row_bytes == infer::tensor_row_bytes(t.type, t.ne[0]), "view " + t.name);
    }
    CHECK(f->tensor("cube")->n_rows() == 6, "3-D rows");
    CHECK(f->tensor("nope") == nullptr, "absent tensor");
  }
}

TEST(gguf_truncated_files_report_errors) {
  std::mt19937 rng(11);
  auto fp = build(sample_tensors(rng), 32, false);
  int accepted = 0, empty_msgs = 0;
  // Every cut in the header region, then a stride through the data.
  for (size_t cut = 0; cut < fp.bytes.size(); cut += (cut < fp.data_start + 64 ? 1 : 7)) {
    std::string err;
    auto f = parse(fp.bytes, cut, &err);
    if (f) accepted++;
    else if (err.empty()) empty_msgs++;
  }
  CHECK(accepted == 0, std::to_string(accepted) + " truncated files were accepted");
  CHECK(empty_msgs == 0, "errors without a message");
  std::string err;
  CHECK(parse(fp.bytes, fp.bytes.size() - 1, &err) == nullptr && err.find("cube") != std::string::npos &&
            err.find("truncated") != std::string::npos,
        "message names the tensor: " + err);
  CHECK(parse(fp.bytes, fp.bytes.size(), &err) != nullptr, "the untruncated file still parses: " + err);
}

TEST(gguf_corrupt_files_report_errors) {
  std::mt19937 rng(12);
  auto ts = sample_tensors(rng);
  auto fp = build(ts, 32, false);
  struct corruption {
    const char* what;
    std::vector<uint8_t> bytes;
    const char* expect;  // substring of the message
  };
  std::vector<corruption> cs;
  auto with = [&](const char* what, const char* expect, auto fn) {
    corruption c{what, fp.bytes, expect};
    fn(c.bytes);
    cs.push_back(std::move(c));
  };
  with("bad magic", "magic", [](std::vector<uint8_t>& b) { b[0] = 'X'; });
  with("version 1", "version", [](std::vector<uint8_t>& b) { poke<uint32_t>(b, 4, 1); });
  with("version 4", "version", [](std::vector<uint8_t>& b) { poke<uint32_t>(b, 4, 4); });
  with("big-endian file", "big-endian", [](std::vector<uint8_t>& b) { poke<uint32_t>(b, 4, 0x03000000u); });
  with("empty tensor name", "name length", [&](std::vector<uint8_t>& b) { poke<uint64_t>(b, fp.info_start, 0); });
  with("negative dimension", "negative", [&](std::vector<uint8_t>& b) {
    poke<uint64_t>(b, fp.type_field_pos[0] - 8, ~0ull);
  });
  with("bool value 2", "bool", [](std::vector<uint8_t>& b) {
    // t.bool is the 9th kv: find its value byte by searching for the key
    const std::string key = "t.bool";
    auto it = std::search(b.begin(), b.end(), key.begin(), key.end());
    *(it + static_cast<long>(key.size()) + 4) = 2;
  });
  with("huge tensor count", "tensor count", [](std::vector<uint8_t>& b) { poke<uint64_t>(b, 8, 1ull << 60); });
  with("huge kv count", "metadata count", [](std::vector<uint8_t>& b) { poke<uint64_t>(b, 16, ~0ull); });
  with("huge key length", "key", [](std::vector<uint8_t>& b) { poke<uint64_t>(b, 24, 1ull << 62); });
  with("bad value type", "value type", [](std::vector<uint8_t>& b) {
    poke<uint32_t>(b, 24 + 8 + std::strlen("general.architecture"), 99);
  });
  with("unsupported tensor type iq2_xxs", "iq2_xxs", [&](std::vector<uint8_t>& b) { poke<uint32_t>(b, fp.type_field_pos[0], 16); });
  with("unknown tensor type 77", "id 77", [&](std::vector<uint8_t>& b) { poke<uint32_t>(b, fp.type_field_pos[1], 77); });
  with("misaligned offset", "alignment", [&](std::vector<uint8_t>& b) {
    poke<uint64_t>(b, fp.offset_field_pos[2], 33);
  });
  with("offset past end", "past the end", [&](std::vector<uint8_t>& b) {
    poke<uint64_t>(b, fp.offset_field_pos[3], 1ull << 40);
  });
  with("overlapping tensors", "overlap", [&](std::vector<uint8_t>& b) { poke<uint64_t>(b, fp.offset_field_pos[1], 0); });
  with("5 dims", "n_dims", [&](std::vector<uint8_t>& b) {
    // n_dims is right after the first tensor's name
    size_t p = fp.info_start + 8 + ts[0].name.size();
    poke<uint32_t>(b, p, 5);
  });
  with("row not a block multiple", "multiple", [&](std::vector<uint8_t>& b) {
    // q8_0 tensor (index 3): ne0 from 64 to 48
    size_t p = fp.type_field_pos[3] - 16;
    poke<uint64_t>(b, p, 48);
  });
  for (auto& c : cs) {
    std::string err;
    auto f = parse(c.bytes, c.bytes.size(), &err);
    CHECK(f == nullptr, std::string(c.what) + ": accepted");
    CHECK(err.find(c.expect) != std::string::npos, std::string(c.what) + ": message '" + err + "' lacks '" + c.expect + "'");
  }
  // Bad alignment values.
  for (uint32_t a : {0u, 3u, 48u}) {
    // A file laid out for alignment 32 whose general.alignment value is then corrupted.
    auto fp2 = build(ts, 32, true);
    size_t kpos = fp2.info_start - 4;  // u32 value of general.alignment is the last kv
    poke<uint32_t>(fp2.bytes, kpos, a);
    std::string err;
    CHECK(parse(fp2.bytes, fp2.bytes.size(), &err) == nullptr && err.find("alignment") != std::string::npos,
          "alignment " + std::to_string(a) + ": " + err);
  }
  std::string err;
  CHECK(gguf_file::open("/nonexistent/x.gguf", &err) == nullptr && err.find("cannot open") != std::string::npos,
        "missing file: " + err);
  // Version 2 has the same layout and is accepted.
  std::vector<uint8_t> v2 = fp.bytes;
  poke<uint32_t>(v2, 4, 2);
  auto f2 = parse(v2, v2.size(), &err);
  CHECK(f2 && f2->version() == 2, "version 2: " + err);
}

TEST(gguf_random_corruption_never_crashes) {
  std::mt19937 rng(13);
  auto fp = build(sample_tensors(rng), 32, false);
  int outside = 0;
  for (int iter = 0; iter < 3000; iter++) {
    std::vector<uint8_t> b = fp.bytes;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; k++) {
      size_t pos = rng() % std::min(b.size(), fp.data_start + 16);
      b[pos] = static_cast<uint8_t>(rng());
    }
    std::string err;
    auto f = parse(b, b.size(), &err);
    if (f) {
      // Accepted files must still be self-consistent.
      for (const auto& t : f->tensors())
        if (f->data_offset() + t.offset + t.n_bytes > b.size()) outside++;
    } else {
      CHECK(!err.empty(), "empty error");
    }
  }
  CHECK(outside == 0, "accepted a tensor outside the file");
}

namespace infer_test {

// `infer_native_tests --gguf-info FILE`: opens a real file with the reader, prints its metadata
// (arrays summarized) and tensors, and dequantizes one row of each tensor as a smoke check.
int gguf_info(const char* path) {
  auto t0 = std::chrono::steady_clock::now();
  std::string err;
  auto f = gguf_file::open(path, &err);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!f) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  std::printf("GGUF v%u, alignment %u, data at %llu, %zu metadata keys, %zu tensors (opened in %.1f ms)\n",
              f->version(), f->alignment(), static_cast<unsigned long long>(f->data_offset()), f->metadata().size(),
              f->tensors().size(), ms);
  for (const auto& [key, v] : f->metadata()) {
    std::printf("  %-50.*s %-6s ", static_cast<int>(key.size()), key.data(), gguf_type_name(v.type));
    if (v.type == gguf_type::string) std::printf("%.60s%s\n", std::string(v.str).c_str(), v.str.size() > 60 ? "..." : "");
    else if (v.is_array()) std::printf("[%llu x %s]\n", static_cast<unsigned long long>(v.count), gguf_type_name(v.elem_type));
    else if (v.is_float()) std::printf("%g\n", v.f);
    else if (v.type == gguf_type::boolean) std::printf("%s\n", v.u ? "true" : "false");
    else std::printf("%lld\n", static_cast<long long>(v.as_int().value_or(-1)));
  }
  std::vector<float> row;
  double checksum = 0;
  for (const auto& t : f->tensors()) {
    auto view = f->view(t);
    row.resize(static_cast<size_t>(view.ne0));
    infer::dequantize_row(view, view.ne1 - 1, row.data());
    for (float x : row) checksum += x;
  }
  for (size_t i = 0; i < f->tensors().size(); i++) {
    const auto& t = f->tensors()[i];
    if (i < 12 || i + 3 >= f->tensors().size())
      std::printf("  %-28s %-5s [%lld, %lld, %lld, %lld] %llu bytes at +%llu\n", t.name.c_str(),
                  infer::tensor_type_name(t.type), static_cast<long long>(t.ne[0]), static_cast<long long>(t.ne[1]),
                  static_cast<long long>(t.ne[2]), static_cast<long long>(t.ne[3]),
                  static_cast<unsigned long long>(t.n_bytes), static_cast<unsigned long long>(t.offset));
    else if (i == 12)
      std::printf("  ...\n");
  }
  std::printf("last-row checksum %.6g\n", checksum);
  return 0;
}

}  // namespace infer_test

namespace infer_test {

// `infer_native_tests --gguf-dequant FILE`: every element of every tensor, dequantized with
// dequantize_row, one "name index value" line each (for cross-checks against other readers).
int gguf_dequant(const char* path) {
  std::string err;
  auto f = gguf_file::open(path, &err);
  if (!f) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  std::vector<float> row;
  for (const auto& t : f->tensors()) {
    auto view = f->view(t);
    row.resize(static_cast<size_t>(view.ne0));
    for (int64_t r = 0; r < view.ne1; r++) {
      infer::dequantize_row(view, r, row.data());
      for (int64_t j = 0; j < view.ne0; j++)
        std::printf("%s %lld %.9g\n", t.name.c_str(), static_cast<long long>(r * view.ne0 + j), row[j]);
    }
  }
  return 0;
}

}  // namespace infer_test
