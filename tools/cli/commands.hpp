// The `tileops` commands. Each takes the arguments after its name and returns the exit status
// (kExitOk, kExitFailure; usage mistakes throw UsageError).
#pragma once

#include <string>
#include <vector>

namespace tileops::cli {

int list_command(const std::vector<std::string>& args);
int check_command(const std::vector<std::string>& args);
int explain_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int bench_command(const std::vector<std::string>& args);
int calibrate_command(const std::vector<std::string>& args);
int warmup_command(const std::vector<std::string>& args);
int tune_command(const std::vector<std::string>& args);
int precompile_command(const std::vector<std::string>& args);

}  // namespace tileops::cli
