#include "runtime/cuda/nvrtc_api.hpp"

#include <dlfcn.h>

#include <chrono>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

using nvrtcProgram = struct _nvrtcProgram*;
using nvrtcResult = int;

struct NvrtcApi {
  const char* (*nvrtcGetErrorString)(nvrtcResult);
  nvrtcResult (*nvrtcVersion)(int*, int*);
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram*, const char*, const char*, int,
                                    const char* const*, const char* const*);
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram*);
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t*);
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char*);
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t*);
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char*);
};

struct LoadedNvrtc {
  NvrtcApi api{};
  std::string error;
};

LoadedNvrtc load() {
  LoadedNvrtc n;
  void* lib = nullptr;
  for (const char* name :
       {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
        "/usr/local/cuda/lib64/libnvrtc.so"}) {
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  if (lib == nullptr) {
    n.error =
        "NVRTC (libnvrtc.so.13) could not be loaded; install the CUDA toolkit's NVRTC to "
        "compile CUDA kernels";
    return n;
  }
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (fn == nullptr && n.error.empty()) n.error = fmt::format("libnvrtc lacks {}", name);
  };
  NvrtcApi& a = n.api;
  bind(a.nvrtcGetErrorString, "nvrtcGetErrorString");
  bind(a.nvrtcVersion, "nvrtcVersion");
  bind(a.nvrtcCreateProgram, "nvrtcCreateProgram");
  bind(a.nvrtcDestroyProgram, "nvrtcDestroyProgram");
  bind(a.nvrtcCompileProgram, "nvrtcCompileProgram");
  bind(a.nvrtcGetCUBINSize, "nvrtcGetCUBINSize");
  bind(a.nvrtcGetCUBIN, "nvrtcGetCUBIN");
  bind(a.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize");
  bind(a.nvrtcGetProgramLog, "nvrtcGetProgramLog");
  return n;
}

const NvrtcApi& nvrtc() {
  static const LoadedNvrtc n = load();
  if (!n.error.empty()) throw RuntimeError("CUDA: " + n.error);
  return n.api;
}

}  // namespace

bool nvrtc_available() noexcept {
  try {
    nvrtc();
    return true;
  } catch (...) {
    return false;
  }
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtc().nvrtcVersion(&major, &minor);
  return fmt::format("{}.{}", major, minor);
}

CompileResult nvrtc_compile(const std::string& name, const std::string& source,
                            const std::vector<std::string>& options, const std::string& arch,
                            const std::vector<NamedHeader>& headers) {
  const NvrtcApi& api = nvrtc();
  const auto start = std::chrono::steady_clock::now();
  std::vector<const char*> header_texts, header_names;
  for (const NamedHeader& h : headers) {
    header_texts.push_back(h.text.c_str());
    header_names.push_back(h.name.c_str());
  }
  nvrtcProgram program = nullptr;
  if (const nvrtcResult r = api.nvrtcCreateProgram(&program, source.c_str(), name.c_str(),
                                                   static_cast<int>(headers.size()),
                                                   header_texts.data(), header_names.data());
      r != 0) {
    throw RuntimeError(
        fmt::format("NVRTC: creating program {}: {}", name, api.nvrtcGetErrorString(r)));
  }
  std::vector<std::string> all = options;
  all.push_back("--gpu-architecture=" + arch);
  std::vector<const char*> argv;
  for (const auto& o : all) argv.push_back(o.c_str());
  const nvrtcResult compiled =
      api.nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  CompileResult result;
  size_t log_size = 0;
  api.nvrtcGetProgramLogSize(program, &log_size);
  result.log.resize(log_size);
  if (log_size > 0) api.nvrtcGetProgramLog(program, result.log.data());
  while (!result.log.empty() && (result.log.back() == '\0' || result.log.back() == '\n'))
    result.log.pop_back();
  if (compiled != 0) {
    api.nvrtcDestroyProgram(&program);
    throw RuntimeError(fmt::format("NVRTC: {} does not compile for {}: {}\n{}", name, arch,
                                   api.nvrtcGetErrorString(compiled), result.log));
  }
  size_t size = 0;
  api.nvrtcGetCUBINSize(program, &size);
  result.cubin.resize(size);
  api.nvrtcGetCUBIN(program, result.cubin.data());
  api.nvrtcDestroyProgram(&program);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace tileops::cuda
