// tileops_torch._fast_call: the eager fast path's CPython extension (docs/design/torch-binding.md,
// "The eager fast path"). An op object binds its parameters once into a FastCall object; calling
// that object with the op's tensors runs the op through libtileops_torch's FastCallApi, skipping
// the dispatcher's argument parsing and key walk, or returns NotImplemented when the call must
// take torch.ops (the op class then calls the overload). Built for one Python version; the op
// classes work without it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/jit/python/pybind_utils.h>

#include "tileops_torch/fast_call.hpp"

namespace {

constexpr size_t kMaxInputs = 16;

struct FastCallObject {
  PyObject_HEAD vectorcallfunc vectorcall;
  const tileops_torch::FastCallApi* api;
  tileops_torch::FastCall* call;
  Py_ssize_t inputs;
  uint32_t optional_inputs;  // bit i: input i may be None
};

PyObject* call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* me = reinterpret_cast<FastCallObject*>(self);
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (kwnames != nullptr || n != me->inputs) Py_RETURN_NOTIMPLEMENTED;
  std::array<at::Tensor, kMaxInputs> inputs;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* arg = args[i];
    if (arg == Py_None) {
      if (((me->optional_inputs >> i) & 1u) == 0) Py_RETURN_NOTIMPLEMENTED;
      continue;
    }
    // A subclass may define __torch_function__ or keys of its own: only torch.Tensor and
    // nn.Parameter are taken.
    if (!THPVariable_CheckExact(arg)) Py_RETURN_NOTIMPLEMENTED;
    inputs[i] = THPVariable_Unpack(arg);
  }
  std::vector<at::Tensor> outputs;
  bool ran = false;
  // As torch releases it around an op: a long CPU op must not hold other threads up.
  Py_BEGIN_ALLOW_THREADS ran =
      me->api->run(me->call, inputs.data(), static_cast<size_t>(n), &outputs);
  Py_END_ALLOW_THREADS if (!ran) Py_RETURN_NOTIMPLEMENTED;
  if (outputs.size() == 1) return THPVariable_Wrap(std::move(outputs[0]));
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(outputs.size()));
  if (tuple == nullptr) return nullptr;
  for (size_t i = 0; i < outputs.size(); ++i) {
    PyObject* t = THPVariable_Wrap(std::move(outputs[i]));
    if (t == nullptr) {
      Py_DECREF(tuple);
      return nullptr;
    }
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), t);
  }
  return tuple;
}

void dealloc(PyObject* self) {
  auto* me = reinterpret_cast<FastCallObject*>(self);
  if (me->call != nullptr) me->api->release(me->call);
  Py_TYPE(self)->tp_free(self);
}

PyTypeObject fast_call_type = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "tileops_torch._fast_call.FastCall";
  t.tp_basicsize = sizeof(FastCallObject);
  t.tp_dealloc = dealloc;
  t.tp_vectorcall_offset = offsetof(FastCallObject, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL;
  t.tp_doc = "An op object's bound call: call(*inputs) -> outputs, or NotImplemented.";
  return t;
}();

// bind(api, op, torch_name, params, target) -> (FastCall or None, reason)
//   api: torch.ops.tileops._fast_call_api(); op: "RMSNormFwdOp"; torch_name: "rms_norm_fwd";
//   params: the construction parameters' values in schema order; target: str or None.
PyObject* bind(PyObject*, PyObject* args) {
  long long api_address = 0;
  const char* op = nullptr;
  const char* torch_name = nullptr;
  PyObject* params = nullptr;
  PyObject* target = nullptr;
  if (!PyArg_ParseTuple(args, "LssO!O", &api_address, &op, &torch_name, &PyTuple_Type, &params,
                        &target)) {
    return nullptr;
  }
  auto declined = [](const std::string& why) {
    return Py_BuildValue("(Os)", Py_None, why.c_str());
  };
  const auto* api =
      reinterpret_cast<const tileops_torch::FastCallApi*>(static_cast<std::intptr_t>(api_address));
  if (api == nullptr || api->version != tileops_torch::FastCallApi::kVersion ||
      api->size != sizeof(tileops_torch::FastCallApi)) {
    return declined("libtileops_torch's fast-call table is of another version than this module");
  }
  try {
    const c10::OperatorHandle handle = c10::Dispatcher::singleton().findSchemaOrThrow(
        ("tileops::" + std::string(torch_name)).c_str(), "");
    const std::vector<c10::Argument>& arguments = handle.schema().arguments();
    const Py_ssize_t n_params = PyTuple_GET_SIZE(params);
    if (static_cast<Py_ssize_t>(arguments.size()) < n_params + 1) {
      return declined(std::string(op) + ": the schema has fewer arguments than the values given");
    }
    const size_t n_inputs = arguments.size() - static_cast<size_t>(n_params) - 1;
    if (n_inputs > kMaxInputs) return declined(std::string(op) + ": too many inputs");
    uint32_t optional_inputs = 0;
    for (size_t i = 0; i < n_inputs; ++i) {
      if (arguments[i].type()->kind() == c10::TypeKind::OptionalType) optional_inputs |= 1u << i;
    }
    std::vector<c10::IValue> values;
    for (Py_ssize_t j = 0; j < n_params; ++j) {
      values.push_back(torch::jit::toIValue(PyTuple_GET_ITEM(params, j),
                                            arguments[n_inputs + static_cast<size_t>(j)].type()));
    }
    values.push_back(torch::jit::toIValue(target, arguments.back().type()));
    std::string why;
    tileops_torch::FastCall* fast = api->bind(op, std::move(values), &why);
    if (fast == nullptr) return declined(why);
    auto* object = PyObject_New(FastCallObject, &fast_call_type);
    if (object == nullptr) {
      api->release(fast);
      return nullptr;
    }
    object->vectorcall = call;
    object->api = api;
    object->call = fast;
    object->inputs = static_cast<Py_ssize_t>(n_inputs);
    object->optional_inputs = optional_inputs;
    return Py_BuildValue("(Ns)", reinterpret_cast<PyObject*>(object), "");
  } catch (const std::exception& e) {
    // The dispatcher's path reports a bad value; here it only means no fast path.
    return declined(std::string(op) + ": " + e.what());
  }
}

PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(api, op, torch_name, params, target) -> (FastCall or None, reason)"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT,
                      "_fast_call",
                      "The eager fast path of tileops_torch's op classes.",
                      -1,
                      methods,
                      nullptr,
                      nullptr,
                      nullptr,
                      nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__fast_call() {
  if (PyType_Ready(&fast_call_type) < 0) return nullptr;
  return PyModule_Create(&module);
}
