#include "gguf/gguf_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

namespace infer {
namespace {
template <typename T>
T load_le(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));  // host is little-endian (x86/ARM); GGUF is little-endian
  return v;
}

}  // namespace

// Bounds-checked cursor over the mapping. Every read checks the remaining length first.
class gguf_cursor {
 public:
  gguf_cursor(const uint8_t* base, size_t size) : base_(base), size_(size) {}
  size_t pos() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  const uint8_t* here() const { return base_ + pos_; }

  template <typename T>
  bool read(T* out) {
    if (remaining() < sizeof(T)) return false;
    *out = load_le<T>(here());
    pos_ += sizeof(T);
    return true;
  }
  bool skip(uint64_t n) {
    if (n > remaining()) return false;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  bool read_string(std::string_view* out) {
    uint64_t len;
    if (!read(&len)) return false;
    if (len > remaining()) return false;
    *out = std::string_view(reinterpret_cast<const char*>(here()), static_cast<size_t>(len));
    pos_ += static_cast<size_t>(len);
    return true;
  }

 private:
  const uint8_t* base_;
  size_t size_;
  size_t pos_ = 0;
};

namespace {

constexpr uint32_t kMagic = 0x46554747;  // "GGUF" little-endian
constexpr int kMaxArrayDepth = 8;         // nested arrays deeper than this are rejected
constexpr size_t kMaxTensorName = 63;     // ggml's GGML_MAX_NAME (64) includes the NUL
constexpr uint32_t kMaxDims = 4;

size_t scalar_size(gguf_type t) {
  switch (t) {
    case gguf_type::u8: case gguf_type::i8: case gguf_type::boolean: return 1;
    case gguf_type::u16: case gguf_type::i16: return 2;
    case gguf_type::u32: case gguf_type::i32: case gguf_type::f32: return 4;
    case gguf_type::u64: case gguf_type::i64: case gguf_type::f64: return 8;
    default: return 0;  // string, array: variable
  }
}

bool valid_gguf_type(uint32_t t) { return t <= 12; }

// Reads scalar `t` at p into the widened fields of v.
void read_scalar(gguf_type t, const uint8_t* p, gguf_value* v) {
  switch (t) {
    case gguf_type::u8: v->u = load_le<uint8_t>(p); break;
    case gguf_type::boolean: v->u = load_le<uint8_t>(p); break;
    case gguf_type::u16: v->u = load_le<uint16_t>(p); break;
    case gguf_type::u32: v->u = load_le<uint32_t>(p); break;
    case gguf_type::u64: v->u = load_le<uint64_t>(p); break;
    case gguf_type::i8: v->i = load_le<int8_t>(p); break;
    case gguf_type::i16: v->i = load_le<int16_t>(p); break;
    case gguf_type::i32: v->i = load_le<int32_t>(p); break;
    case gguf_type::i64: v->i = load_le<int64_t>(p); break;
    case gguf_type::f32: v->f = load_le<float>(p); break;
    case gguf_type::f64: v->f = load_le<double>(p); break;
    default: break;
  }
}

bool is_unsigned(gguf_type t) {
  return t == gguf_type::u8 || t == gguf_type::u16 || t == gguf_type::u32 || t == gguf_type::u64;
}
bool is_signed(gguf_type t) {
  return t == gguf_type::i8 || t == gguf_type::i16 || t == gguf_type::i32 || t == gguf_type::i64;
}

const char* ggml_type_label(uint32_t raw) {
  // Known ggml types we do not support, for clearer errors.
  switch (raw) {
    case 3: return "q4_1"; case 7: return "q5_1"; case 9: return "q8_1"; case 10: return "q2_k";
    case 11: return "q3_k"; case 15: return "q8_k"; case 16: return "iq2_xxs"; case 17: return "iq2_xs";
    case 18: return "iq3_xxs"; case 19: return "iq1_s"; case 20: return "iq4_nl"; case 21: return "iq3_s";
    case 22: return "iq2_s"; case 23: return "iq4_xs"; case 24: return "i8"; case 25: return "i16";
    case 26: return "i32"; case 27: return "i64"; case 28: return "f64"; case 29: return "iq1_m";
    case 34: return "tq1_0"; case 35: return "tq2_0"; case 39: return "mxfp4";
    default: return nullptr;
  }
}


std::string at(size_t pos) { return " (at byte " + std::to_string(pos) + ")"; }

// Parses a value of type t at the cursor. `what` names the key for errors.
bool parse_value(gguf_cursor& c, gguf_type t, int depth, const std::string& what, gguf_value* v,
                 std::string* err) {
  v->type = t;
  if (t == gguf_type::string) {
    size_t p = c.pos();
    if (!c.read_string(&v->str)) {
      *err = "metadata '" + what + "': string length runs past the end of the file" + at(p);
      return false;
    }
    return true;
  }
  if (t != gguf_type::array) {
    size_t n = scalar_size(t);
    if (c.remaining() < n) {
      *err = "metadata '" + what + "': " + gguf_type_name(t) + " value truncated" + at(c.pos());
      return false;
    }
    read_scalar(t, c.here(), v);
    if (t == gguf_type::boolean && v->u > 1) {
      *err = "metadata '" + what + "': bool value " + std::to_string(v->u) + " is not 0 or 1" + at(c.pos());
      return false;
    }
    c.skip(n);
    return true;
  }
  // Array: u32 elem type, u64 count, elements.
  if (depth >= kMaxArrayDepth) {
    *err = "metadata '" + what + "': arrays nested deeper than " + std::to_string(kMaxArrayDepth) + at(c.pos());
    return false;
  }
  uint32_t et;
  uint64_t count;
  size_t p = c.pos();
  if (!c.read(&et) || !c.read(&count)) {
    *err = "metadata '" + what + "': array header truncated" + at(p);
    return false;
  }
  if (!valid_gguf_type(et)) {
    *err = "metadata '" + what + "': array element type " + std::to_string(et) + " is not a GGUF type" + at(p);
    return false;
  }
  v->elem_type = static_cast<gguf_type>(et);
  v->count = count;
  size_t es = scalar_size(v->elem_type);
  // Every element takes at least 1 byte (scalars) or 8 (string length) or 12 (array header):
  // bound the count by the bytes left before allocating anything.
  uint64_t min_elem = es ? es : (v->elem_type == gguf_type::string ? 8 : 12);
  if (count > c.remaining() / min_elem) {
    *err = "metadata '" + what + "': array of " + std::to_string(count) + " " +
           gguf_type_name(v->elem_type) + " elements runs past the end of the file" + at(p);
    return false;
  }
  if (es) {
    v->raw = c.here();
    c.skip(count * es);
    if (v->elem_type == gguf_type::boolean) {
      for (uint64_t i = 0; i < count; i++) {
        if (v->raw[i] > 1) {
          *err = "metadata '" + what + "': bool element " + std::to_string(i) + " is not 0 or 1";
          return false;
        }
      }
    }
    return true;
  }
  if (v->elem_type == gguf_type::string) {
    v->strings.resize(static_cast<size_t>(count));
    for (uint64_t i = 0; i < count; i++) {
      size_t q = c.pos();
      if (!c.read_string(&v->strings[i])) {
        *err = "metadata '" + what + "': string element " + std::to_string(i) +
               " runs past the end of the file" + at(q);
        return false;
      }
    }
    return true;
  }
  v->items.resize(static_cast<size_t>(count));
  for (uint64_t i = 0; i < count; i++) {
    if (!parse_value(c, gguf_type::array, depth + 1, what + "[" + std::to_string(i) + "]", &v->items[i], err))
      return false;
  }
  return true;
}

// One tensor-info record at the cursor (name, dims, type, offset), checked on its own: the
// name's length, dims without overflow, a supported type, whole blocks per row, an aligned offset.
bool read_tensor_info(gguf_cursor& c, uint64_t k, uint32_t alignment, gguf_tensor_info* ti, std::string* err) {
  std::string_view name;
  size_t p = c.pos();
  if (!c.read_string(&name)) {
    *err = "tensor info " + std::to_string(k) + ": name runs past the end of the file" + at(p);
    return false;
  }
  ti->name = std::string(name);
  const std::string label = "tensor '" + ti->name + "'";
  if (name.empty() || name.size() > kMaxTensorName) {
    *err = "tensor info " + std::to_string(k) + ": name length " + std::to_string(name.size()) +
           " is not in [1, " + std::to_string(kMaxTensorName) + "]" + at(p);
    return false;
  }
  if (!c.read(&ti->n_dims)) {
    *err = label + ": info truncated (n_dims)" + at(c.pos());
    return false;
  }
  if (ti->n_dims > kMaxDims) {  // 0 dims: a scalar (one element), as gguf-py writes shape ()
    *err = label + ": n_dims " + std::to_string(ti->n_dims) + " is more than 4";
    return false;
  }
  for (uint32_t d = 0; d < ti->n_dims; d++) {
    uint64_t ne;
    if (!c.read(&ne)) {
      *err = label + ": info truncated (dims)" + at(c.pos());
      return false;
    }
    if (ne > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      *err = label + ": dimension " + std::to_string(d) + " is negative or too large";
      return false;
    }
    ti->ne[d] = static_cast<int64_t>(ne);
  }
  // Element count must not overflow int64.
  {
    int64_t n = 1;
    for (int d = 0; d < 4; d++) {
      if (ti->ne[d] != 0 && n > std::numeric_limits<int64_t>::max() / ti->ne[d]) {
        *err = label + ": element count overflows";
        return false;
      }
      n *= ti->ne[d];
    }
  }
  uint32_t raw_type;
  if (!c.read(&raw_type)) {
    *err = label + ": info truncated (type)" + at(c.pos());
    return false;
  }
  if (!tensor_type_supported(raw_type)) {
    const char* known = ggml_type_label(raw_type);
    *err = label + ": tensor type " + (known ? std::string(known) + " (id " + std::to_string(raw_type) + ")"
                                           : "id " + std::to_string(raw_type)) +
           " is not supported (supported: f32, f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1, q2_k, q3_k, q4_k, q5_k, q6_k, iq4_nl, iq4_xs, mxfp4)";
    return false;
  }
  ti->type = static_cast<tensor_type>(raw_type);
  if (!c.read(&ti->offset)) {
    *err = label + ": info truncated (offset)" + at(c.pos());
    return false;
  }
  int64_t blk = tensor_type_block_elems(ti->type);
  if (ti->ne[0] % blk != 0) {
    *err = label + ": row length " + std::to_string(ti->ne[0]) + " is not a multiple of " +
           tensor_type_name(ti->type) + "'s block size " + std::to_string(blk);
    return false;
  }
  if (ti->offset % alignment != 0) {
    *err = label + ": data offset " + std::to_string(ti->offset) + " is not a multiple of the alignment " +
           std::to_string(alignment);
    return false;
  }
  // Bytes: rows * row_bytes; row_bytes <= ne0 * 4, so check the product against overflow.
  uint64_t row_bytes = tensor_row_bytes(ti->type, ti->ne[0]);
  uint64_t rows = static_cast<uint64_t>(ti->ne[1]) * static_cast<uint64_t>(ti->ne[2]) * static_cast<uint64_t>(ti->ne[3]);
  if (row_bytes != 0 && rows > std::numeric_limits<uint64_t>::max() / row_bytes) {
    *err = label + ": byte size overflows";
    return false;
  }
  ti->n_bytes = rows * row_bytes;
  return true;
}

}  // namespace

const char* gguf_type_name(gguf_type t) {
  switch (t) {
    case gguf_type::u8: return "u8"; case gguf_type::i8: return "i8";
    case gguf_type::u16: return "u16"; case gguf_type::i16: return "i16";
    case gguf_type::u32: return "u32"; case gguf_type::i32: return "i32";
    case gguf_type::f32: return "f32"; case gguf_type::boolean: return "bool";
    case gguf_type::string: return "string"; case gguf_type::array: return "array";
    case gguf_type::u64: return "u64"; case gguf_type::i64: return "i64";
    case gguf_type::f64: return "f64";
  }
  return "?";
}

// ---- gguf_value ----

bool gguf_value::is_integer() const { return is_unsigned(type) || is_signed(type); }

std::optional<int64_t> gguf_value::as_int() const {
  if (is_signed(type)) return i;
  if (is_unsigned(type)) {
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  return std::nullopt;
}

std::optional<double> gguf_value::as_double() const {
  if (is_float()) return f;
  if (is_signed(type)) return static_cast<double>(i);
  if (is_unsigned(type)) return static_cast<double>(u);
  return std::nullopt;
}

std::optional<int64_t> gguf_value::int_at(uint64_t idx) const {
  if (type != gguf_type::array || idx >= count || !raw) return std::nullopt;
  if (!is_unsigned(elem_type) && !is_signed(elem_type)) return std::nullopt;
  gguf_value e;
  e.type = elem_type;
  read_scalar(elem_type, raw + idx * scalar_size(elem_type), &e);
  return e.as_int();
}

std::optional<double> gguf_value::double_at(uint64_t idx) const {
  if (type != gguf_type::array || idx >= count || !raw) return std::nullopt;
  if (elem_type == gguf_type::boolean) return std::nullopt;
  gguf_value e;
  e.type = elem_type;
  read_scalar(elem_type, raw + idx * scalar_size(elem_type), &e);
  return e.as_double();
}

std::optional<std::vector<int32_t>> gguf_value::to_i32_vector() const {
  if (type != gguf_type::array) return std::nullopt;
  std::vector<int32_t> out(static_cast<size_t>(count));
  for (uint64_t k = 0; k < count; k++) {
    auto v = int_at(k);
    if (!v || *v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max())
      return std::nullopt;
    out[k] = static_cast<int32_t>(*v);
  }
  return out;
}

std::optional<std::vector<float>> gguf_value::to_f32_vector() const {
  if (type != gguf_type::array) return std::nullopt;
  std::vector<float> out(static_cast<size_t>(count));
  for (uint64_t k = 0; k < count; k++) {
    auto v = double_at(k);
    if (!v) return std::nullopt;
    out[k] = static_cast<float>(*v);
  }
  return out;
}

// ---- gguf_file ----

gguf_file::~gguf_file() {
  if (map_) munmap(map_, size_);
}

std::unique_ptr<gguf_file> gguf_file::open(const std::string& path, std::string* error) {
  std::string local;
  std::string* err = error ? error : &local;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = "cannot open '" + path + "': " + std::strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *err = "cannot stat '" + path + "': " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = "'" + path + "' is not a regular file";
    ::close(fd);
    return nullptr;
  }
  size_t size = static_cast<size_t>(st.st_size);
  if (size < 24) {
    *err = "'" + path + "' is too small to be a GGUF file (" + std::to_string(size) + " bytes)";
    ::close(fd);
    return nullptr;
  }
  void* m = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  int map_errno = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (m == MAP_FAILED) {
    *err = "cannot mmap '" + path + "': " + std::strerror(map_errno);
    return nullptr;
  }
  // Start readahead of the whole file now (asynchronous): the first forward pass then finds the
  // weights in the page cache instead of faulting them in 4 KiB at a time.
  posix_madvise(m, size, POSIX_MADV_WILLNEED);
  std::unique_ptr<gguf_file> f(new gguf_file());
  f->path_ = path;
  f->map_ = m;
  f->base_ = static_cast<const uint8_t*>(m);
  f->size_ = size;
  if (!f->parse(err)) {
    *err = "'" + path + "': " + *err;
    return nullptr;
  }
  return f;
}

std::unique_ptr<gguf_file> gguf_file::from_memory(const uint8_t* data, size_t size, std::string* error) {
  std::string local;
  std::string* err = error ? error : &local;
  std::unique_ptr<gguf_file> f(new gguf_file());
  f->path_ = "<memory>";
  f->base_ = data;
  f->size_ = size;
  if (!f->parse(err)) return nullptr;
  return f;
}

// The file is read in four steps, each validating what it reads before the next relies on it.
bool gguf_file::parse(std::string* err) {
  gguf_cursor c(base_, size_);
  uint64_t n_tensors = 0, n_kv = 0;
  return parse_header(c, &n_tensors, &n_kv, err) && parse_metadata(c, n_kv, err) &&
         parse_tensor_infos(c, n_tensors, err) && locate_tensor_data(c.pos(), err);
}

bool gguf_file::parse_header(gguf_cursor& c, uint64_t* n_tensors, uint64_t* n_kv, std::string* err) {
  uint32_t magic;
  if (!c.read(&magic)) {
    *err = "file too small for a GGUF header";
    return false;
  }
  if (magic != kMagic) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "bad magic 0x%08x (expected \"GGUF\")", magic);
    *err = buf;
    return false;
  }
  if (!c.read(&version_)) {
    *err = "header truncated (version)";
    return false;
  }
  if (version_ != 2 && version_ != 3) {
    if (version_ == 1) *err = "GGUF version 1 is not supported (re-convert the model)";
    else if ((version_ & 0xFFFF) == 0 && (version_ >> 16) != 0)
      *err = "big-endian GGUF files are not supported";
    else *err = "unsupported GGUF version " + std::to_string(version_) + " (expected 3)";
    return false;
  }
  if (!c.read(n_tensors) || !c.read(n_kv)) {
    *err = "header truncated (tensor/metadata counts)";
    return false;
  }
  // Each kv is at least 8 (key len) + 4 (type) + 1 bytes; each tensor info at least 8 + 4 + 4 + 8.
  if (*n_kv > c.remaining() / 13) {
    *err = "metadata count " + std::to_string(*n_kv) + " cannot fit in a " + std::to_string(size_) + "-byte file";
    return false;
  }
  if (*n_tensors > c.remaining() / 24) {
    *err = "tensor count " + std::to_string(*n_tensors) + " cannot fit in a " + std::to_string(size_) + "-byte file";
    return false;
  }
  return true;
}

bool gguf_file::parse_metadata(gguf_cursor& c, uint64_t n_kv, std::string* err) {
  kv_.reserve(static_cast<size_t>(n_kv));
  for (uint64_t k = 0; k < n_kv; k++) {
    std::string_view key;
    size_t p = c.pos();
    if (!c.read_string(&key)) {
      *err = "metadata entry " + std::to_string(k) + ": key runs past the end of the file" + at(p);
      return false;
    }
    if (key.empty()) {
      *err = "metadata entry " + std::to_string(k) + ": empty key" + at(p);
      return false;
    }
    uint32_t t;
    p = c.pos();
    if (!c.read(&t)) {
      *err = "metadata '" + std::string(key) + "': value type truncated" + at(p);
      return false;
    }
    if (!valid_gguf_type(t)) {
      *err = "metadata '" + std::string(key) + "': value type " + std::to_string(t) + " is not a GGUF type" + at(p);
      return false;
    }
    gguf_value v;
    if (!parse_value(c, static_cast<gguf_type>(t), 0, std::string(key), &v, err)) return false;
    if (kv_index_.count(key)) {
      *err = "duplicate metadata key '" + std::string(key) + "'";
      return false;
    }
    kv_index_.emplace(key, kv_.size());
    kv_.emplace_back(key, std::move(v));
  }

  if (const gguf_value* a = find("general.alignment")) {
    auto v = a->as_int();
    if (!v || *v <= 0 || *v > (1 << 30) || (*v & (*v - 1)) != 0) {
      *err = "general.alignment must be a positive power of two (got " +
             (v ? std::to_string(*v) : std::string(gguf_type_name(a->type))) + ")";
      return false;
    }
    alignment_ = static_cast<uint32_t>(*v);
  }
  return true;
}

bool gguf_file::parse_tensor_infos(gguf_cursor& c, uint64_t n_tensors, std::string* err) {
  tensors_.reserve(static_cast<size_t>(n_tensors));
  for (uint64_t k = 0; k < n_tensors; k++) {
    gguf_tensor_info ti;
    if (!read_tensor_info(c, k, alignment_, &ti, err)) return false;
    if (tensor_index_.count(ti.name)) {
      *err = "duplicate tensor name '" + ti.name + "'";
      return false;
    }
    tensor_index_.emplace(ti.name, tensors_.size());
    tensors_.push_back(std::move(ti));
  }
  return true;
}

bool gguf_file::locate_tensor_data(size_t infos_end, std::string* err) {
  // Tensor data starts at the next multiple of the alignment.
  uint64_t pos = infos_end;
  data_offset_ = (pos + alignment_ - 1) / alignment_ * alignment_;
  if (data_offset_ > size_) {
    if (!tensors_.empty()) {
      *err = "file ends before the tensor data section (needs " + std::to_string(data_offset_) + " bytes, has " +
             std::to_string(size_) + ")";
      return false;
    }
    data_offset_ = size_;  // no tensors: a file without trailing padding is fine
  }
  uint64_t data_size = size_ - data_offset_;
  for (const auto& t : tensors_) {
    if (t.offset > data_size || t.n_bytes > data_size - t.offset) {
      *err = "tensor '" + t.name + "' (" + tensor_type_name(t.type) + ", " + std::to_string(t.n_bytes) +
             " bytes at data offset " + std::to_string(t.offset) + ") extends past the end of the file (" +
             std::to_string(data_size) + " data bytes): truncated file?";
      return false;
    }
  }
  // No two tensors may overlap.
  std::vector<const gguf_tensor_info*> by_off;
  by_off.reserve(tensors_.size());
  for (const auto& t : tensors_) by_off.push_back(&t);
  std::sort(by_off.begin(), by_off.end(),
            [](const gguf_tensor_info* a, const gguf_tensor_info* b) { return a->offset < b->offset; });
  for (size_t k = 1; k < by_off.size(); k++) {
    const auto* a = by_off[k - 1];
    const auto* b = by_off[k];
    if (a->offset + a->n_bytes > b->offset && a->n_bytes && b->n_bytes) {
      *err = "tensors '" + a->name + "' and '" + b->name + "' overlap";
      return false;
    }
  }
  return true;
}

const gguf_value* gguf_file::find(std::string_view key) const {
  auto it = kv_index_.find(key);
  return it == kv_index_.end() ? nullptr : &kv_[it->second].second;
}

std::optional<uint32_t> gguf_file::get_u32(std::string_view key) const {
  auto v = get_i64(key);
  if (!v || *v < 0 || *v > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

std::optional<int64_t> gguf_file::get_i64(std::string_view key) const {
  const gguf_value* v = find(key);
  return v ? v->as_int() : std::nullopt;
}

std::optional<float> gguf_file::get_f32(std::string_view key) const {
  auto v = get_f64(key);
  if (!v) return std::nullopt;
  return static_cast<float>(*v);
}

std::optional<double> gguf_file::get_f64(std::string_view key) const {
  const gguf_value* v = find(key);
  return v ? v->as_double() : std::nullopt;
}

std::optional<bool> gguf_file::get_bool(std::string_view key) const {
  const gguf_value* v = find(key);
  if (!v || v->type != gguf_type::boolean) return std::nullopt;
  return v->u != 0;
}

std::optional<std::string_view> gguf_file::get_string(std::string_view key) const {
  const gguf_value* v = find(key);
  if (!v || v->type != gguf_type::string) return std::nullopt;
  return v->str;
}

const gguf_value* gguf_file::get_array(std::string_view key) const {
  const gguf_value* v = find(key);
  return v && v->type == gguf_type::array ? v : nullptr;
}

const gguf_tensor_info* gguf_file::tensor(std::string_view name) const {
  auto it = tensor_index_.find(std::string(name));
  return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

tensor_view gguf_file::view(const gguf_tensor_info& t) const {
  tensor_view v;
  v.type = t.type;
  v.data = tensor_data(t);
  v.ne0 = t.ne[0];
  v.ne1 = t.n_rows();
  v.row_bytes = tensor_row_bytes(t.type, t.ne[0]);
  return v;
}

}  // namespace infer
