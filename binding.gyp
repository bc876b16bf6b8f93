{
  "targets": [
    {
      "target_name": "infer",
      "sources": ["<!@(node -p \"require('./native/sources.json').cpu.join(' ')\")"],
      "include_dirs": ["native", "<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_CPP_EXCEPTIONS"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-O3", "-march=native", "-Wall", "-Wextra"],
      "ldflags": ["-pthread"]
    }
  ]
}
