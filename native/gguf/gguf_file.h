// GGUF v3 (and v2) reader over a read-only mmap of the file: no copy of the weights, and no copy
// of metadata strings (they are string_views into the mapping, valid while the gguf_file lives).
//
// open() validates everything before returning: magic, version, counts against the file size,
// every string length, every (nested) array, tensor names (unique, < 64 bytes), n_dims <= 4 (0 is
// a scalar), non-negative dims without overflow, supported tensor types (kernels.h), row widths
// that are a multiple of the type's block size, general.alignment (power of two; default 32), data offset,
// each tensor's offset aligned and its bytes inside the file, tensors not overlapping. Any
// failure returns nullptr with a one-line error naming the file position, key or tensor and type.
// It never reads outside the mapping (a file truncated *while* mapped can still SIGBUS; that is
// the OS's contract for mmap, not something a reader can check).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kernels/kernels.h"

namespace infer {

// GGUF metadata value type ids.
enum class gguf_type : uint32_t {
  u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7, string = 8,
  array = 9, u64 = 10, i64 = 11, f64 = 12,
};
const char* gguf_type_name(gguf_type t);

// One metadata value. Scalars are widened on read: unsigned ints and bool in `u`, signed ints in
// `i`, floats in `f`. Arrays of numbers/bools keep a pointer to their little-endian bytes in the
// mapping (read them with the typed element accessors); arrays of strings and nested arrays are
// decoded into `strings` / `items`.
struct gguf_value {
  gguf_type type = gguf_type::u8;
  uint64_t u = 0;
  int64_t i = 0;
  double f = 0.0;
  std::string_view str;  // type == string

  // type == array:
  gguf_type elem_type = gguf_type::u8;
  uint64_t count = 0;
  const uint8_t* raw = nullptr;            // numeric/bool elements: count * elem size bytes
  std::vector<std::string_view> strings;   // string elements
  std::vector<gguf_value> items;           // nested array elements

  bool is_integer() const;  // u8..i64 scalar (not bool)
  bool is_float() const { return type == gguf_type::f32 || type == gguf_type::f64; }
  bool is_array() const { return type == gguf_type::array; }
  // Scalar as a signed 64-bit integer (any integer type; nullopt if not an integer or a u64 above
  // INT64_MAX). Bool is not an integer here.
  std::optional<int64_t> as_int() const;
  // Scalar as double: float types and integer types.
  std::optional<double> as_double() const;

  // Array elements (numeric element types only; i must be < count).
  std::optional<int64_t> int_at(uint64_t i) const;
  std::optional<double> double_at(uint64_t i) const;
  // Whole numeric array converted (nullopt if the element type is not numeric, or a value does not
  // fit the target type).
  std::optional<std::vector<int32_t>> to_i32_vector() const;
  std::optional<std::vector<float>> to_f32_vector() const;
};

struct gguf_tensor_info {
  std::string name;
  uint32_t n_dims = 0;
  int64_t ne[4] = {1, 1, 1, 1};  // ggml order: ne[0] is the row length; unused dims are 1
  tensor_type type = tensor_type::f32;
  uint64_t offset = 0;   // relative to the start of the tensor data section
  uint64_t n_bytes = 0;  // ne[1]*ne[2]*ne[3] rows of tensor_row_bytes(type, ne[0])
  int64_t n_elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
  int64_t n_rows() const { return ne[1] * ne[2] * ne[3]; }
};

class gguf_cursor;  // bounds-checked reader over the mapping (gguf_file.cc)

class gguf_file {
 public:
  // Maps and validates `path`. On failure returns nullptr and sets *error (if non-null).
  static std::unique_ptr<gguf_file> open(const std::string& path, std::string* error);
  // Same over caller-owned bytes (tests, in-memory files); `data` must outlive the gguf_file.
  static std::unique_ptr<gguf_file> from_memory(const uint8_t* data, size_t size,
                                                std::string* error);
  ~gguf_file();
  gguf_file(const gguf_file&) = delete;
  gguf_file& operator=(const gguf_file&) = delete;

  uint32_t version() const { return version_; }
  uint32_t alignment() const { return alignment_; }
  uint64_t data_offset() const { return data_offset_; }  // absolute file offset of tensor data
  size_t file_size() const { return size_; }
  const std::string& path() const { return path_; }

  // Metadata, in file order.
  const std::vector<std::pair<std::string_view, gguf_value>>& metadata() const { return kv_; }
  const gguf_value* find(std::string_view key) const;  // nullptr when absent

  // Typed getters: nullopt when the key is absent or its value does not convert. Integer getters
  // accept any integer type whose value fits; get_f32/get_f64 accept float and integer types.
  std::optional<uint32_t> get_u32(std::string_view key) const;
  std::optional<int64_t> get_i64(std::string_view key) const;
  std::optional<float> get_f32(std::string_view key) const;
  std::optional<double> get_f64(std::string_view key) const;
  std::optional<bool> get_bool(std::string_view key) const;
  std::optional<std::string_view> get_string(std::string_view key) const;
  const gguf_value* get_array(std::string_view key) const;  // nullptr unless an array

  // Tensors, in file order.
  const std::vector<gguf_tensor_info>& tensors() const { return tensors_; }
  const gguf_tensor_info* tensor(std::string_view name) const;  // nullptr when absent
  const uint8_t* tensor_data(const gguf_tensor_info& t) const { return base_ + data_offset_ + t.offset; }
  // The tensor as a kernels.h 2-D view: ne0 = ne[0], ne1 = ne[1]*ne[2]*ne[3].
  tensor_view view(const gguf_tensor_info& t) const;

 private:
  gguf_file() = default;
  bool parse(std::string* error);
  bool parse_header(gguf_cursor& c, uint64_t* n_tensors, uint64_t* n_kv, std::string* error);
  bool parse_metadata(gguf_cursor& c, uint64_t n_kv, std::string* error);  // and general.alignment
  bool parse_tensor_infos(gguf_cursor& c, uint64_t n_tensors, std::string* error);
  bool locate_tensor_data(size_t infos_end, std::string* error);  // data offset, bounds, no overlap

  std::string path_;
  const uint8_t* base_ = nullptr;
  size_t size_ = 0;
  void* map_ = nullptr;  // non-null when we own an mmap
  uint32_t version_ = 0;
  uint32_t alignment_ = 32;
  uint64_t data_offset_ = 0;
  std::vector<std::pair<std::string_view, gguf_value>> kv_;
  std::unordered_map<std::string_view, size_t> kv_index_;
  std::vector<gguf_tensor_info> tensors_;
  std::unordered_map<std::string, size_t> tensor_index_;
};

}  // namespace infer
