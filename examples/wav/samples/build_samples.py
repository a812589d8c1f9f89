#!/usr/bin/env python3
"""Builds the example's sample WAV files from the RIFF WAVE layout, by hand with struct, and
one with Python's own `wave` module as an independent writer. Run from anywhere:
`python3 examples/wav/samples/build_samples.py`; the files land beside this script."""

import math
import struct
import wave
from pathlib import Path

HERE = Path(__file__).resolve().parent


def chunk(fourcc: bytes, body: bytes, pad: bytes = b"\0") -> bytes:
    """A chunk: fourcc, size, body, and the pad byte after an odd size."""
    return fourcc + struct.pack("<I", len(body)) + body + (pad if len(body) % 2 else b"")


def riff(*chunks: bytes) -> bytes:
    body = b"WAVE" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def fmt(audio_format, channels, rate, bits, extension=b""):
    align = channels * bits // 8
    return struct.pack("<HHIIHH", audio_format, channels, rate, rate * align, align, bits) + extension


def sine(n, period, scale):
    return [round(scale * math.sin(2 * math.pi * i / period)) for i in range(n)]


def pcm16_stereo_by_wave_module(path):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(8000)
        left, right = sine(100, 20, 12000), sine(100, 33, -8000)
        w.writeframes(b"".join(struct.pack("<hh", l, r) for l, r in zip(left, right)))


def pcm8_mono_odd_with_info():
    # 8-bit PCM is unsigned; 101 samples give an odd data size and a pad byte.
    data = bytes(128 + s for s in sine(101, 25, 100))
    info = b"INFO" + chunk(b"INAM", b"skelcodec sample\0") + chunk(b"ISFT", b"build_samples.py\0")
    return riff(chunk(b"fmt ", fmt(1, 1, 11025, 8)), chunk(b"LIST", info), chunk(b"data", data))


def float32_with_fact():
    # IEEE float: the format header carries cbSize = 0, and a fact chunk the frame count.
    frames = [math.sin(2 * math.pi * i / 16) * 0.5 for i in range(64)]
    data = b"".join(struct.pack("<f", f) for f in frames)
    return riff(
        chunk(b"fmt ", fmt(3, 1, 22050, 32, struct.pack("<H", 0))),
        chunk(b"fact", struct.pack("<I", len(frames))),
        chunk(b"data", data),
    )


def extensible_24bit():
    # WAVE_FORMAT_EXTENSIBLE: cbSize 22, valid bits, channel mask, the PCM sub-format GUID.
    guid = struct.pack("<IHH", 1, 0x0000, 0x0010) + bytes([0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71])
    extension = struct.pack("<HHI", 22, 24, 0x3) + guid
    samples = sine(40, 10, 2**22)
    data = b"".join(struct.pack("<i", s)[:3] * 2 for s in samples)
    return riff(chunk(b"fmt ", fmt(0xFFFE, 2, 48000, 24, extension)), chunk(b"data", data))


def odd_data_with_stale_pad():
    # A pad byte that is not zero, as some writers leave it: kept as read.
    data = bytes(range(7))
    return riff(chunk(b"fmt ", fmt(1, 1, 8000, 8)), chunk(b"data", data, pad=b"\xAB"))


if __name__ == "__main__":
    pcm16_stereo_by_wave_module(HERE / "pcm16_stereo.wav")
    for name, build in [
        ("pcm8_mono_odd_with_info.wav", pcm8_mono_odd_with_info),
        ("float32_with_fact.wav", float32_with_fact),
        ("extensible_24bit.wav", extensible_24bit),
        ("odd_data_with_stale_pad.wav", odd_data_with_stale_pad),
    ]:
        (HERE / name).write_bytes(build())
