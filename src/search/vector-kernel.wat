;; The vector scan of src/search/vector-store.ts: int8 chunk vectors against an int16 query,
;; WebAssembly SIMD (i32x4.dot_i16x8_s). vector-kernel.ts embeds the compiled bytes; the unit
;; test compiles this file with wabt and checks they are the same.
;;
;; dots(q, codes, n, dim, out): out[i] = sum over j < dim of q[j] * codes[i * dim + j]
;;   q: dim int16 at byte q; codes: n * dim int8 at byte codes; out: n int32 at byte out.
;;   dim is a multiple of 16. |q[j]| <= 32767 and |codes| <= 127 keep 384-dim sums in int32.
(module
  (memory (export "memory") 1)
  (func (export "dots") (param $q i32) (param $codes i32) (param $n i32) (param $dim i32) (param $out i32)
    (local $i i32) (local $j i32) (local $acc v128) (local $v v128) (local $p i32)
    (local.set $p (local.get $codes))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $rowdone
          (loop $cols
            (br_if $rowdone (i32.ge_u (local.get $j) (local.get $dim)))
            (local.set $v (v128.load (i32.add (local.get $p) (local.get $j))))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v))
                                 (v128.load (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 1)))))))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v))
                                 (v128.load offset=16 (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 1)))))))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $cols)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                   (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $p (i32.add (local.get $p) (local.get $dim)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))))
