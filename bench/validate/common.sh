# Sourced by the scripts beside it: the programs they validate, and
#   validate_each ROOT BUILD N PREFIX [SEAM VALIDATE OPTIONS...]
# which runs `seam validate --format json` N times on each of them, writing
# PREFIX<name>.<i>.json (a failed validation leaves what it wrote).
validate_each() {
  v_root=$1 v_build=$2 v_n=$3 v_prefix=$4
  shift 4
  for v_prog in examples/branch examples/train_loop examples/select \
                test/runtime/validate/probes test/runtime/validate/printed; do
    v_name=$(basename "$v_prog")
    v_exe=$v_build/bin/example_$v_name
    [ -x "$v_exe" ] || v_exe=$v_build/bin/validate_$v_name
    v_i=0
    while [ "$v_i" -lt "$v_n" ]; do
      "$v_build/bin/seam" validate "$@" "$v_root/$v_prog.cpp" --format json \
        --run "$v_exe" -- -std=c++17 -I"$v_root/include" \
        > "$v_prefix$v_name.$v_i.json" 2>/dev/null || true
      v_i=$((v_i + 1))
    done
  done
}
