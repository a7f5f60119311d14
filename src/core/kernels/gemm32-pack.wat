;; The packing step of the float32 kernel for weights stored as BF16 or F32, in WebAssembly SIMD128: a
;; weight tile's raw numbers, copied by JavaScript into the kernel's memory (a memcpy), are widened and
;; rearranged here into the B panels gemm32.wat reads (8 columns, b[t][0..7] contiguous for each step t).
;; JavaScript did this at 1.5–2 ns a number, more than the kernel's own time at a few tokens.
;; BF16 is the top half of a float32's bits: extend the 16-bit word with zeros and shift it up 16.
;; Shares the kernel's memory (imported); compiled by scripts/build-wasm.ts into gemm32-wasm.ts.
(module
  (import "kernel" "memory" (memory 1))
  ;; 'in-out' (Conv1D [in, out]): src holds the tile's kc rows of 8·panels BF16 words, srcStride bytes
  ;; apart; panel p of step t goes to dst + p·32·kc + 32·t.
  (func (export "rowsBF16") (param $src i32) (param $srcStride i32) (param $dst i32) (param $kc i32) (param $panels i32)
    (local $t i32) (local $p i32) (local $s i32) (local $d i32) (local $v v128)
    (if (i32.or (i32.le_s (local.get $kc) (i32.const 0)) (i32.le_s (local.get $panels) (i32.const 0))) (then (return)))
    ;; Panel by panel, so the writes run on and the reads stride (strided writes cost more).
    (local.set $d (local.get $dst))
    (loop $runs
      (local.set $s (i32.add (local.get $src) (i32.shl (local.get $p) (i32.const 4))))
      (local.set $t (i32.const 0))
      (loop $steps
        (local.set $v (v128.load (local.get $s)))
        (v128.store (local.get $d) (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $v)) (i32.const 16)))
        (v128.store offset=16 (local.get $d) (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $v)) (i32.const 16)))
        (local.set $s (i32.add (local.get $s) (local.get $srcStride)))
        (local.set $d (i32.add (local.get $d) (i32.const 32)))
        (br_if $steps (i32.lt_s (local.tee $t (i32.add (local.get $t) (i32.const 1))) (local.get $kc))))
      (br_if $runs (i32.lt_s (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $panels)))))
  ;; The same for F32 words: a run of 8 is two v128s, moved as they are.
  (func (export "rowsF32") (param $src i32) (param $srcStride i32) (param $dst i32) (param $kc i32) (param $panels i32)
    (local $t i32) (local $p i32) (local $s i32) (local $d i32)
    (if (i32.or (i32.le_s (local.get $kc) (i32.const 0)) (i32.le_s (local.get $panels) (i32.const 0))) (then (return)))
    (local.set $d (local.get $dst))
    (loop $runs
      (local.set $s (i32.add (local.get $src) (i32.shl (local.get $p) (i32.const 5))))
      (local.set $t (i32.const 0))
      (loop $steps
        (v128.store (local.get $d) (v128.load (local.get $s)))
        (v128.store offset=16 (local.get $d) (v128.load offset=16 (local.get $s)))
        (local.set $s (i32.add (local.get $s) (local.get $srcStride)))
        (local.set $d (i32.add (local.get $d) (i32.const 32)))
        (br_if $steps (i32.lt_s (local.tee $t (i32.add (local.get $t) (i32.const 1))) (local.get $kc))))
      (br_if $runs (i32.lt_s (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $panels)))))
  ;; 'out-in' (nn.Linear [out, in]): src holds the tile's 8·panels columns, each a run of BF16 words
  ;; col bytes apart (the weight's whole rows, copied at once); step t of panel p gathers word t of its
  ;; 8 columns, one lane each, and goes to dst + p·32·kc + 32·t.
  (func (export "columnsBF16") (param $src i32) (param $col i32) (param $dst i32) (param $kc i32) (param $panels i32)
    (local $t i32) (local $p i32) (local $s i32) (local $d i32) (local $v v128)
    (if (i32.or (i32.le_s (local.get $kc) (i32.const 0)) (i32.le_s (local.get $panels) (i32.const 0))) (then (return)))
    (loop $panel
      (local.set $s (i32.add (local.get $src) (i32.mul (local.get $p) (i32.shl (local.get $col) (i32.const 3)))))
      (local.set $d (i32.add (local.get $dst) (i32.mul (local.get $p) (i32.shl (local.get $kc) (i32.const 5)))))
      (local.set $t (i32.const 0))
      (loop $steps
        (local.set $v (v128.load16_lane 0 (local.get $s) (local.get $v)))
        (local.set $v (v128.load16_lane 1 (i32.add (local.get $s) (local.get $col)) (local.get $v)))
        (local.set $v (v128.load16_lane 2 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 2))) (local.get $v)))
        (local.set $v (v128.load16_lane 3 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 3))) (local.get $v)))
        (local.set $v (v128.load16_lane 4 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 4))) (local.get $v)))
        (local.set $v (v128.load16_lane 5 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 5))) (local.get $v)))
        (local.set $v (v128.load16_lane 6 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 6))) (local.get $v)))
        (local.set $v (v128.load16_lane 7 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 7))) (local.get $v)))
        (v128.store (local.get $d) (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $v)) (i32.const 16)))
        (v128.store offset=16 (local.get $d) (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $v)) (i32.const 16)))
        (local.set $s (i32.add (local.get $s) (i32.const 2)))
        (local.set $d (i32.add (local.get $d) (i32.const 32)))
        (br_if $steps (i32.lt_s (local.tee $t (i32.add (local.get $t) (i32.const 1))) (local.get $kc))))
      (br_if $panel (i32.lt_s (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $panels)))))
  ;; The same for F32 words: two v128s of four lanes each.
  (func (export "columnsF32") (param $src i32) (param $col i32) (param $dst i32) (param $kc i32) (param $panels i32)
    (local $t i32) (local $p i32) (local $s i32) (local $d i32) (local $lo v128) (local $hi v128)
    (if (i32.or (i32.le_s (local.get $kc) (i32.const 0)) (i32.le_s (local.get $panels) (i32.const 0))) (then (return)))
    (loop $panel
      (local.set $s (i32.add (local.get $src) (i32.mul (local.get $p) (i32.shl (local.get $col) (i32.const 3)))))
      (local.set $d (i32.add (local.get $dst) (i32.mul (local.get $p) (i32.shl (local.get $kc) (i32.const 5)))))
      (local.set $t (i32.const 0))
      (loop $steps
        (local.set $lo (v128.load32_lane 0 (local.get $s) (local.get $lo)))
        (local.set $lo (v128.load32_lane 1 (i32.add (local.get $s) (local.get $col)) (local.get $lo)))
        (local.set $lo (v128.load32_lane 2 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 2))) (local.get $lo)))
        (local.set $lo (v128.load32_lane 3 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 3))) (local.get $lo)))
        (local.set $hi (v128.load32_lane 0 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 4))) (local.get $hi)))
        (local.set $hi (v128.load32_lane 1 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 5))) (local.get $hi)))
        (local.set $hi (v128.load32_lane 2 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 6))) (local.get $hi)))
        (local.set $hi (v128.load32_lane 3 (i32.add (local.get $s) (i32.mul (local.get $col) (i32.const 7))) (local.get $hi)))
        (v128.store (local.get $d) (local.get $lo))
        (v128.store offset=16 (local.get $d) (local.get $hi))
        (local.set $s (i32.add (local.get $s) (i32.const 4)))
        (local.set $d (i32.add (local.get $d) (i32.const 32)))
        (br_if $steps (i32.lt_s (local.tee $t (i32.add (local.get $t) (i32.const 1))) (local.get $kc))))
      (br_if $panel (i32.lt_s (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $panels))))))
