;; The float32 hot loop in WebAssembly SIMD128 (four float32 lanes), with a separate multiply and add:
;; each cell's sum is built t = 0, 1, 2, … from +0 exactly as gemm32.ts's reference does, so every
;; bit is the reference's. (gemm32-fma.wat is the same loop with a fused multiply-add, where it runs.)
;; 5 rows × 8 columns per step: 10 sums, two registers for B, one for A's broadcast and one
;; for the product before it is added; measured 47 GFLOP/s on one core here against 44 for 4 × 8 and
;; 29 for 6 × 8, which spills.
;; A panel: 5 rows of A interleaved, a[t][0..4] contiguous for each step t (zero rows pad the last).
;; B panel: 8 columns, b[t][0..7] contiguous (zero columns pad the last), widened from the
;; weight's stored type by the packing step. C: rows ldc bytes apart.
;; "block" runs the kernel over a block of row panels × column panels in one call from JavaScript,
;; column panels outer so that one B panel stays in L1 while the A panels stream from L2.
;; Compiled by scripts/build-wasm.ts into gemm32-wasm.ts; edit this file, then run it.
(module
  (memory (export "memory") 1)
  ;; Rows per A panel, for the packing step.
  (global (export "rows") i32 (i32.const 5))
  ;; For each column panel jp < panelsJ (B at pb + jp·pbStride, C columns 8·jp…) and each row panel
  ;; ip < panelsI (A at pa + ip·paStride, C rows 5·ip… from pc): kc steps, from C if accumulate, else from +0.
  (func (export "block") (param $pa i32) (param $paStride i32) (param $pb i32) (param $pbStride i32)
    (param $pc i32) (param $ldc i32) (param $panelsI i32) (param $panelsJ i32) (param $kc i32) (param $accumulate i32)
    (local $jp i32) (local $ip i32) (local $rowStride i32)
    (local.set $rowStride (i32.mul (local.get $ldc) (i32.const 5)))
    (if (i32.and (i32.gt_s (local.get $panelsI) (i32.const 0)) (i32.gt_s (local.get $panelsJ) (i32.const 0)))
      (then
        (loop $columns
          (local.set $ip (i32.const 0))
          (loop $rows
            (call $kernel
              (i32.add (local.get $pa) (i32.mul (local.get $ip) (local.get $paStride)))
              (i32.add (local.get $pb) (i32.mul (local.get $jp) (local.get $pbStride)))
              (i32.add (local.get $pc) (i32.add (i32.mul (local.get $ip) (local.get $rowStride)) (i32.mul (local.get $jp) (i32.const 32))))
              (local.get $kc) (local.get $ldc) (local.get $accumulate))
            (br_if $rows (i32.lt_s (local.tee $ip (i32.add (local.get $ip) (i32.const 1))) (local.get $panelsI))))
          (br_if $columns (i32.lt_s (local.tee $jp (i32.add (local.get $jp) (i32.const 1))) (local.get $panelsJ)))))))
  ;; One 5 × 8 tile of C: the sums start at +0 (a v128 local starts as zero) on the first block of
  ;; steps, else from C, and take kc steps.
  (func $kernel (param $pa i32) (param $pb i32) (param $pc i32) (param $kc i32) (param $ldc i32) (param $accumulate i32)
    (local $c0_0 v128) (local $c0_1 v128)
    (local $c1_0 v128) (local $c1_1 v128)
    (local $c2_0 v128) (local $c2_1 v128)
    (local $c3_0 v128) (local $c3_1 v128)
    (local $c4_0 v128) (local $c4_1 v128)
    (local $b0 v128) (local $b1 v128) (local $a v128)
    (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $p4 i32)
    (local.set $p1 (i32.add (local.get $pc) (local.get $ldc)))
    (local.set $p2 (i32.add (local.get $p1) (local.get $ldc)))
    (local.set $p3 (i32.add (local.get $p2) (local.get $ldc)))
    (local.set $p4 (i32.add (local.get $p3) (local.get $ldc)))
    (if (local.get $accumulate)
      (then
        (local.set $c0_0 (v128.load offset=0 (local.get $pc)))
        (local.set $c0_1 (v128.load offset=16 (local.get $pc)))
        (local.set $c1_0 (v128.load offset=0 (local.get $p1)))
        (local.set $c1_1 (v128.load offset=16 (local.get $p1)))
        (local.set $c2_0 (v128.load offset=0 (local.get $p2)))
        (local.set $c2_1 (v128.load offset=16 (local.get $p2)))
        (local.set $c3_0 (v128.load offset=0 (local.get $p3)))
        (local.set $c3_1 (v128.load offset=16 (local.get $p3)))
        (local.set $c4_0 (v128.load offset=0 (local.get $p4)))
        (local.set $c4_1 (v128.load offset=16 (local.get $p4)))
      ))
    (if (i32.gt_s (local.get $kc) (i32.const 0))
      (then
        (loop $step
          (local.set $b0 (v128.load offset=0 (local.get $pb)))
          (local.set $b1 (v128.load offset=16 (local.get $pb)))
          (local.set $a (v128.load32_splat offset=0 (local.get $pa)))
          (local.set $c0_0 (f32x4.add (local.get $c0_0) (f32x4.mul (local.get $a) (local.get $b0))))
          (local.set $c0_1 (f32x4.add (local.get $c0_1) (f32x4.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load32_splat offset=4 (local.get $pa)))
          (local.set $c1_0 (f32x4.add (local.get $c1_0) (f32x4.mul (local.get $a) (local.get $b0))))
          (local.set $c1_1 (f32x4.add (local.get $c1_1) (f32x4.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load32_splat offset=8 (local.get $pa)))
          (local.set $c2_0 (f32x4.add (local.get $c2_0) (f32x4.mul (local.get $a) (local.get $b0))))
          (local.set $c2_1 (f32x4.add (local.get $c2_1) (f32x4.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load32_splat offset=12 (local.get $pa)))
          (local.set $c3_0 (f32x4.add (local.get $c3_0) (f32x4.mul (local.get $a) (local.get $b0))))
          (local.set $c3_1 (f32x4.add (local.get $c3_1) (f32x4.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load32_splat offset=16 (local.get $pa)))
          (local.set $c4_0 (f32x4.add (local.get $c4_0) (f32x4.mul (local.get $a) (local.get $b0))))
          (local.set $c4_1 (f32x4.add (local.get $c4_1) (f32x4.mul (local.get $a) (local.get $b1))))
          (local.set $pa (i32.add (local.get $pa) (i32.const 20)))
          (local.set $pb (i32.add (local.get $pb) (i32.const 32)))
          (br_if $step (local.tee $kc (i32.sub (local.get $kc) (i32.const 1)))))))
    (v128.store offset=0 (local.get $pc) (local.get $c0_0))
    (v128.store offset=16 (local.get $pc) (local.get $c0_1))
    (v128.store offset=0 (local.get $p1) (local.get $c1_0))
    (v128.store offset=16 (local.get $p1) (local.get $c1_1))
    (v128.store offset=0 (local.get $p2) (local.get $c2_0))
    (v128.store offset=16 (local.get $p2) (local.get $c2_1))
    (v128.store offset=0 (local.get $p3) (local.get $c3_0))
    (v128.store offset=16 (local.get $p3) (local.get $c3_1))
    (v128.store offset=0 (local.get $p4) (local.get $c4_0))
    (v128.store offset=16 (local.get $p4) (local.get $c4_1))))
