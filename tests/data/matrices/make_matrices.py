#!/usr/bin/python3
"""Regenerates the test matrices read by tests/core/io/tst_matrix_io.cpp (run from this folder).

The .npy files are written by numpy itself, so that the reader is tested against the
reference writer (Fortran order, big-endian, format 2.0/3.0). The safetensors file is
built by hand from the spec, since the safetensors package is not a build dependency.
"""
import json
import struct

import numpy as np
from numpy.lib import format as fmt

# Fortran-order float64, 2x3
a = np.asfortranarray(np.array([[1.5, -2.25, 3.0], [4.0, 5.125, -6.0]], dtype='<f8'))
assert a.flags.f_contiguous and not a.flags.c_contiguous
np.save('f8_fortran.npy', a)
np.save('f4_big_endian.npy', np.array([[0.1, -1e-3], [3.4028235e38, 7.0]], dtype='>f4'))
np.save('f8_big_endian_1d.npy', np.array([0.5, -0.25, 1e-3], dtype='>f8'))
np.save('f4_1d.npy', np.arange(5, dtype='<f4') * np.float32(0.5))
for v in (2, 3):
    with open(f'f4_v{v}.npy', 'wb') as f:
        fmt.write_array(f, np.array([[1.0, 2.0], [3.0, -4.5]], dtype='<f4'), version=(v, 0))

# Files the reader must refuse
np.save('i4.npy', np.array([[1, 2], [3, 4]], dtype='<i4'))
np.save('b1.npy', np.array([True, False]))
np.save('rank3.npy', np.zeros((2, 2, 2), dtype='<f4'))
np.save('scalar.npy', np.array(1.0, dtype='<f4'))
np.save('empty.npy', np.zeros((0, 3), dtype='<f4'))
np.save('f8_out_of_range.npy', np.array([[1.0, 1e300]], dtype='<f8'))

# CSV as numpy.savetxt writes it, with a header line
np.savetxt('savetxt_header.csv', np.array([[0.25, -1.0, 3.0], [1e-3, 2.5e10, -0.0]]),
           delimiter=',', header='q0,q1,q2', comments='')

# safetensors: F16, BF16, F64 and F32 tensors plus __metadata__
f16 = np.array([1.5, -2.0, 65504.0, 2.0**-24, 2.0**-14, -0.0], dtype='<f2')
f32_for_bf16 = np.array([1.5, -2.0, 3.140625, 2.0**-130], dtype='<f4')
bf16 = (f32_for_bf16.view('<u4') >> 16).astype('<u2')
assert ((bf16.astype('<u4') << 16).view('<f4') == f32_for_bf16).all()
f64 = np.array([[0.5, -1e-3], [2.0, 1e30]], dtype='<f8')
f32 = np.array([[1.0, 2.0, 3.0]], dtype='<f4')
tensors = [('half', 'F16', [2, 3], f16.tobytes()),
           ('brain', 'BF16', [4], bf16.tobytes()),
           ('wide', 'F64', [2, 2], f64.tobytes()),
           ('bias', 'F32', [1, 3], f32.tobytes())]
header, data = {'__metadata__': {'format': 'pt'}}, b''
for name, dtype, shape, raw in tensors:
    header[name] = {'dtype': dtype, 'shape': shape,
                    'data_offsets': [len(data), len(data) + len(raw)]}
    data += raw
h = json.dumps(header).encode()
h += b' ' * ((8 - len(h) % 8) % 8)
with open('mixed.safetensors', 'wb') as f:
    f.write(struct.pack('<Q', len(h)) + h + data)
