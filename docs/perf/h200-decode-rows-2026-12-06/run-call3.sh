#!/usr/bin/env bash
# Call 3 (GPU machine, .gpu/ carried, after call 2 on the same warm machine): the SASS of the
# row kernels call 2 ran, from the kernel cache (each file a cache header, then the cubin).
set -uo pipefail
source scripts/gpu/call_env.sh
python3 - <<'PY'
import glob, os, subprocess
out = os.environ.get("OUT", "/tmp/out")
with open(os.path.join(out, "sass.txt"), "w") as txt:
    for f in sorted(glob.glob("/tmp/tileops-cache/*.cubin")):
        base = os.path.basename(f)
        if not (base.startswith("rms_norm") or base.startswith("softmax_rows")):
            continue
        data = open(f, "rb").read()
        at = data.find(b"\x7fELF")
        elf = "/tmp/" + base + ".elf"
        open(elf, "wb").write(data[at:])
        r = subprocess.run(["cuobjdump", "-sass", elf], capture_output=True, text=True)
        txt.write(f"### {base} (ELF at {at})\n{r.stdout}{r.stderr}\n")
PY
grep -c "/\*[0-9a-f]\{4\}\*/" "$out/sass.txt"
