;; The one hot loop of the core, in WebAssembly with 128-bit SIMD (two float64 lanes).
;; C (4 × 4, rows ldc bytes apart) = (C if accumulate, else 0) + A panel · B panel, where the
;; A panel holds 4 rows of A interleaved (a[t][0..3] contiguous for each step t) and the B panel
;; holds 4 columns of B,
;; b[t][0..3] contiguous and ldb bytes after b[t-1][0..3] (32 when packed, the row length when B is
;; read in place). Sixteen sums live in eight registers; each step loads two B pairs and four
;; A numbers and does 16 multiplications and 16 additions.
;; Every sum is built in the order t = 0, 1, 2, … with a separate multiply and add (no fused
;; multiply-add), so each cell is bit for bit what the plain triple loop gives.
;; "block" runs the kernel over a block of row panels × column panels in one call from JavaScript
;; (a call into WebAssembly costs about as much as 30 steps of the kernel, and the scores' products
;; are only 64 steps deep), skipping a row panel's zero tail as its entry in `ends` says.
;; Compiled by scripts/build-wasm.ts into gemm-wasm.ts; edit this file, then run it.
(module
  (memory (export "memory") 1)
  ;; For each column panel jp < panelsJ (B at pb + jp·pbStride, C columns 4·jp…) and each row panel
  ;; ip < panelsI (A at pa + ip·paStride, C rows 4·ip… at pc): steps = clamp(ends[ip] − t0, 0, kc), an
  ;; i32 at pends + 4·ip; the kernel runs unless there are no steps and the block only adds to C.
  (func (export "block") (param $pa i32) (param $paStride i32) (param $pb i32) (param $pbStride i32)
    (param $pc i32) (param $ldc i32) (param $pends i32) (param $panelsI i32) (param $panelsJ i32)
    (param $t0 i32) (param $kc i32) (param $ldb i32) (param $accumulate i32)
    (local $jp i32) (local $ip i32) (local $steps i32) (local $rowStride i32)
    (local.set $rowStride (i32.shl (local.get $ldc) (i32.const 2)))
    (if (i32.and (i32.gt_s (local.get $panelsI) (i32.const 0)) (i32.gt_s (local.get $panelsJ) (i32.const 0)))
      (then
        (loop $columns
          (local.set $ip (i32.const 0))
          (loop $rows
            (local.set $steps (i32.sub (i32.load (i32.add (local.get $pends) (i32.shl (local.get $ip) (i32.const 2)))) (local.get $t0)))
            (if (i32.lt_s (local.get $steps) (i32.const 0)) (then (local.set $steps (i32.const 0))))
            (if (i32.gt_s (local.get $steps) (local.get $kc)) (then (local.set $steps (local.get $kc))))
            (if (i32.or (i32.gt_s (local.get $steps) (i32.const 0)) (i32.eqz (local.get $accumulate)))
              (then
                (call $kernel
                  (i32.add (local.get $pa) (i32.mul (local.get $ip) (local.get $paStride)))
                  (i32.add (local.get $pb) (i32.mul (local.get $jp) (local.get $pbStride)))
                  (i32.add (local.get $pc) (i32.add (i32.mul (local.get $ip) (local.get $rowStride)) (i32.shl (local.get $jp) (i32.const 5))))
                  (local.get $steps) (local.get $ldb) (local.get $ldc) (local.get $accumulate))))
            (br_if $rows (i32.lt_s (local.tee $ip (i32.add (local.get $ip) (i32.const 1))) (local.get $panelsI))))
          (br_if $columns (i32.lt_s (local.tee $jp (i32.add (local.get $jp) (i32.const 1))) (local.get $panelsJ)))))))
  (func $kernel (export "kernel") (param $pa i32) (param $pb i32) (param $pc i32) (param $kc i32) (param $ldb i32) (param $ldc i32) (param $accumulate i32)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local $b0 v128) (local $b1 v128) (local $a v128)
    (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local.set $p1 (i32.add (local.get $pc) (local.get $ldc)))
    (local.set $p2 (i32.add (local.get $p1) (local.get $ldc)))
    (local.set $p3 (i32.add (local.get $p2) (local.get $ldc)))
    ;; The sums start at +0 (a v128 local starts as zero) on the first block of steps, else from C.
    (if (local.get $accumulate)
      (then
        (local.set $c00 (v128.load (local.get $pc)))
        (local.set $c01 (v128.load offset=16 (local.get $pc)))
        (local.set $c10 (v128.load (local.get $p1)))
        (local.set $c11 (v128.load offset=16 (local.get $p1)))
        (local.set $c20 (v128.load (local.get $p2)))
        (local.set $c21 (v128.load offset=16 (local.get $p2)))
        (local.set $c30 (v128.load (local.get $p3)))
        (local.set $c31 (v128.load offset=16 (local.get $p3)))))
    (if (i32.gt_s (local.get $kc) (i32.const 0))
      (then
        (loop $step
          (local.set $b0 (v128.load (local.get $pb)))
          (local.set $b1 (v128.load offset=16 (local.get $pb)))
          (local.set $a (v128.load64_splat (local.get $pa)))
          (local.set $c00 (f64x2.add (local.get $c00) (f64x2.mul (local.get $a) (local.get $b0))))
          (local.set $c01 (f64x2.add (local.get $c01) (f64x2.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load64_splat offset=8 (local.get $pa)))
          (local.set $c10 (f64x2.add (local.get $c10) (f64x2.mul (local.get $a) (local.get $b0))))
          (local.set $c11 (f64x2.add (local.get $c11) (f64x2.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load64_splat offset=16 (local.get $pa)))
          (local.set $c20 (f64x2.add (local.get $c20) (f64x2.mul (local.get $a) (local.get $b0))))
          (local.set $c21 (f64x2.add (local.get $c21) (f64x2.mul (local.get $a) (local.get $b1))))
          (local.set $a (v128.load64_splat offset=24 (local.get $pa)))
          (local.set $c30 (f64x2.add (local.get $c30) (f64x2.mul (local.get $a) (local.get $b0))))
          (local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $a) (local.get $b1))))
          (local.set $pa (i32.add (local.get $pa) (i32.const 32)))
          (local.set $pb (i32.add (local.get $pb) (local.get $ldb)))
          (br_if $step (local.tee $kc (i32.sub (local.get $kc) (i32.const 1)))))))
    (v128.store (local.get $pc) (local.get $c00))
    (v128.store offset=16 (local.get $pc) (local.get $c01))
    (v128.store (local.get $p1) (local.get $c10))
    (v128.store offset=16 (local.get $p1) (local.get $c11))
    (v128.store (local.get $p2) (local.get $c20))
    (v128.store offset=16 (local.get $p2) (local.get $c21))
    (v128.store (local.get $p3) (local.get $c30))
    (v128.store offset=16 (local.get $p3) (local.get $c31))))
