# -*- Python -*-
# lit configuration for normc's FileCheck tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "normc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".toml", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.normc_obj_root, "tests", "lit")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The sanitized build's runtime options (scripts/test.sh) reach the tools.
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS"])
# Keep the tests away from the user's kernel cache.
config.environment["NORMC_CACHE_DIR"] = os.path.join(config.test_exec_root,
                                                     "cache")

config.substitutions.append(("%specs", os.path.join(config.normc_src_root,
                                                     "specs")))
config.substitutions.append(("%normc", os.path.join(config.normc_tools_dir,
                                                     "normc")))
llvm_config.add_tool_substitutions(["normc-opt", "normc-translate"], [config.normc_tools_dir])
