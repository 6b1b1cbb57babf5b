// The registry's text formats: device specs, plugin file names, folder lists and name patterns;
// canonical paths.
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <stdexcept>

#include "registry_internal.h"

namespace mlxd {

namespace {

[[noreturn]] void throw_bad_device(const std::string& spec) {
  std::string several = spec.find(',') == std::string::npos
                            ? ""
                            : " (a program runs on one device: a model over several runs as a "
                              "process a device, e.g. generate --tp N)";
  throw std::invalid_argument("bad device '" + spec + "': expected cpu, gpu, cpu:N or gpu:N" +
                              several);
}

bool all_digits(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

Device parse_device(const std::string& spec) {
  Device d;
  std::string type = spec;
  auto colon = spec.find(':');
  if (colon != std::string::npos) {
    type = spec.substr(0, colon);
    std::string idx = spec.substr(colon + 1);
    // Six digits at most: std::stoi must not overflow.
    if (idx.empty() || idx.size() > 6 || !all_digits(idx)) throw_bad_device(spec);
    d.index = std::stoi(idx);
  }
  if (type == "cpu") {
    d.type = DeviceType::cpu;
  } else if (type == "gpu") {
    d.type = DeviceType::gpu;
  } else {
    throw_bad_device(spec);
  }
  return d;
}

std::string to_string(const Device& d) {
  return std::string(device_type_name(d.type)) + ":" + std::to_string(d.index);
}

bool parse_plugin_filename(const std::string& filename, std::string* group, std::string* variant) {
  const std::string prefix = kPluginPrefix;
  const std::string suffix = kPluginSuffix;
  if (filename.size() <= prefix.size() + suffix.size() ||
      filename.compare(0, prefix.size(), prefix) != 0 ||
      filename.compare(filename.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  std::string stem =
      filename.substr(prefix.size(), filename.size() - prefix.size() - suffix.size());
  if (stem.empty() || stem.front() == '-' || stem.back() == '-') {
    return false;
  }
  auto dash = stem.find('-');
  *group = stem.substr(0, dash);
  *variant = dash == std::string::npos ? std::string() : stem.substr(dash + 1);
  return true;
}

std::string plugin_full_name(const std::string& group, const std::string& variant) {
  return variant.empty() ? group : group + "-" + variant;
}

std::vector<std::string> split_path_list(const std::string& list) {
  std::vector<std::string> paths;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) paths.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return paths;
}

std::string join_path_list(const std::vector<std::string>& paths) {
  std::string list;
  for (const auto& p : paths) {
    list += (list.empty() ? "" : ":");
    list += p;
  }
  return list;
}

bool glob_match(const std::string& pattern, const std::string& full, const std::string& group) {
  if (fnmatch(pattern.c_str(), full.c_str(), 0) == 0 ||
      fnmatch(pattern.c_str(), group.c_str(), 0) == 0) {
    return true;
  }
  // "cpu-*" names the whole family, the plain "cpu" included.
  if (pattern.size() > 2 && pattern.compare(pattern.size() - 2, 2, "-*") == 0) {
    return fnmatch(pattern.substr(0, pattern.size() - 2).c_str(), group.c_str(), 0) == 0;
  }
  return false;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) != nullptr) {
    return std::string(buf);
  }
  return path;
}

}  // namespace mlxd
