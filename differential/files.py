"""Gathers real files for the differential test into OUT/<format>/ (default
/tmp/differential/files): files found on the machine and files made by the formats' real
producers (ImageMagick, sox, ffmpeg, mkfs, genisoimage, qemu-img, javac, openssl, ...), as each
format's recipe in formats.tsv says.

    python files.py [--out DIR] [--per-format N] [--only FORMAT,...]

A recipe is a list of words: `find:GLOB` (an absolute glob; PYLIB stands for Python's standard
library and site-packages, of both the system Python and the venv) and `make:NAME` (a function
`make_NAME(work_dir)` below that returns the files it made). A tool that is missing or fails is
reported and skipped: that format gets fewer files, and the others are not affected. Files are
kept under MAX_SIZE; at most N per format, made files first (they are chosen for variety), then
found ones spread over everything that matched. OUT/files.json lists what was gathered and what
failed.
"""

import argparse
import base64
import functools
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_SIZE = 3 * 1024 * 1024
MIN_SIZE = 16
CONVERT = "/usr/bin/convert" if os.path.exists("/usr/bin/convert-im6.q16") else "convert"
VENV = os.environ.get("DIFFERENTIAL_VENV",
                      os.path.join(os.environ.get("DIFFERENTIAL_DIR", "/tmp/differential"), "venv"))


class Skip(Exception):
    """A recipe that cannot run here (a tool is missing)."""


def run(*args, cwd=None, stdin=None, timeout=120):
    tool = args[0]
    if shutil.which(tool) is None and not os.path.exists(tool):
        raise Skip(f"{tool} is not installed")
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, input=stdin, capture_output=True, timeout=timeout
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"{' '.join(map(str, args))} exited with {result.returncode}: "
            + result.stderr.decode(errors="replace")[-400:]
        )
    return result.stdout


def python_dirs():
    dirs = {sysconfig.get_path("stdlib"), sysconfig.get_path("purelib")}
    dirs.update(glob.glob(f"{VENV}/lib/python3*/site-packages"))
    return sorted(d for d in dirs if d and os.path.isdir(d))


def find(pattern):
    patterns = [pattern.replace("PYLIB", d) for d in python_dirs()] if "PYLIB" in pattern else [pattern]
    found = []
    for p in patterns:
        for path in glob.iglob(p, recursive=True):
            try:
                size = os.path.getsize(path)
            except OSError:
                continue
            if os.path.isfile(path) and not os.path.islink(path) and MIN_SIZE <= size <= MAX_SIZE:
                found.append(path)
    return sorted(set(found))


def spread(items, n):
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def a_source_tree(work):
    """A small directory tree for file-system and archive producers: text, binary, a link, a
    nested directory, an empty file and a long name."""
    tree = os.path.join(work, "tree")
    if os.path.isdir(tree):
        return tree
    os.makedirs(os.path.join(tree, "sub", "deeper"))
    with open(os.path.join(tree, "hello.txt"), "w") as f:
        f.write("hello, differential world\n" * 20)
    with open(os.path.join(tree, "sub", "binary.bin"), "wb") as f:
        f.write(bytes(range(256)) * 40)
    with open(os.path.join(tree, "sub", "deeper", "a file with a rather long name.txt"), "w") as f:
        f.write("long name\n")
    open(os.path.join(tree, "empty"), "w").close()
    os.symlink("hello.txt", os.path.join(tree, "link"))
    return tree


def a_sound(work, name="tone.wav"):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        run("sox", "-n", "-r", "8000", "-c", "1", "-b", "16", path, "synth", "0.25", "sine", "440")
    return path


def a_picture(work):
    path = os.path.join(work, "picture.png")
    if not os.path.exists(path):
        run(CONVERT, "-size", "48x32", "gradient:red-blue", "-fill", "white",
            "-draw", "circle 24,16 30,20", path)
    return path


def an_icc_profile():
    """A version 4 profile (the gallery's PNG and JPEG read ICC profiles with icc_4, which
    requires version 4): colord's sRGB."""
    found = [p for p in find("/usr/share/color/icc/**/*.icc") if open(p, "rb").read(9)[8:] == b"\x04"]
    if not found:
        raise Skip("no version 4 ICC profile installed (colord-data)")
    return next((p for p in found if p.endswith("/sRGB.icc")), found[0])


# --- images -----------------------------------------------------------------------------------

def make_png(work):
    pic = a_picture(work)
    out = []
    for name, args in [
        ("icc.png", ["-profile", an_icc_profile(), "-set", "comment", "with a profile"]),
        ("palette.png", ["-colors", "16", "-type", "Palette"]),
        ("gray16.png", ["-colorspace", "Gray", "-depth", "16"]),
        ("alpha-text.png", ["-alpha", "on", "-set", "Title", "differential", "-set", "Author", "skelcodec"]),
    ]:
        path = os.path.join(work, name)
        run(CONVERT, pic, *args, path)
        out.append(path)
    return out


def make_gif(work):
    pic = a_picture(work)
    still, anim = os.path.join(work, "still.gif"), os.path.join(work, "anim.gif")
    run(CONVERT, pic, "-set", "comment", "a comment", still)
    run(CONVERT, "-delay", "10", "-loop", "0", pic, "-size", "48x32", "xc:yellow", "rose:", anim)
    return [still, anim]


def make_jpeg(work):
    pic = a_picture(work)
    plain, icc, exif, progressive = (os.path.join(work, n) for n in
                                     ("plain.jpg", "icc.jpg", "exif.jpg", "progressive.jpg"))
    run(CONVERT, pic, "-quality", "85", plain)
    run(CONVERT, pic, "-profile", an_icc_profile(), icc)
    run(CONVERT, "rose:", "-interlace", "Plane", progressive)
    run(CONVERT, pic, exif)
    run("exiftool", "-q", "-overwrite_original", "-Make=Differential", "-Model=Harness 1",
        "-DateTimeOriginal=2024:01:02 03:04:05", "-ExposureTime=1/125", "-FNumber=2.8",
        "-ISO=200", "-Orientation#=6", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
        "-GPSLongitude=2.35", "-GPSLongitudeRef=E", "-Artist=skelcodec", exif)
    return [plain, icc, exif, progressive]


def make_exif(work):
    jpg = [p for p in make_jpeg(work) if p.endswith("exif.jpg")][0]
    tagged = os.path.join(work, "big-endian.jpg")
    run(CONVERT, "rose:", tagged)
    run("exiftool", "-q", "-overwrite_original", "-ExifByteOrder=Big-endian", "-Make=MM",
        "-UserComment=motorola order", "-ImageDescription=big", tagged)
    out = []
    for src, name in [(jpg, "little.exif"), (tagged, "big.exif")]:
        blob = run("exiftool", "-b", "-EXIF", src)
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(blob)
        out.append(path)
    return out


def make_ico(work):
    pic = a_picture(work)
    multi, single = os.path.join(work, "multi.ico"), os.path.join(work, "single.ico")
    run(CONVERT, pic, "-define", "icon:auto-resize=32,16", multi)
    run(CONVERT, "rose:", "-resize", "16x16!", single)
    return [multi, single]


def converted(work, ext, variants):
    pic = a_picture(work)
    out = []
    for name, args in variants:
        path = os.path.join(work, f"{name}.{ext}")
        prefix = "".join(a for a in args if a.endswith(":"))
        run(CONVERT, pic, *(a for a in args if not a.endswith(":")), prefix + path)
        out.append(path)
    return out


def make_bmp(work):
    return converted(work, "bmp", [("v3", ["BMP3:"]), ("v5", ["BMP:"]),
                                   ("palette", ["-colors", "16", "-type", "Palette", "BMP3:"]),
                                   ("v4-alpha", ["-alpha", "on", "BMP:"])])


def make_tga(work):
    return converted(work, "tga", [("truecolor", []), ("rle", ["-compress", "RLE"]),
                                   ("palette", ["-colors", "16", "-type", "Palette"])])


def make_pcx(work):
    return converted(work, "pcx", [("truecolor", []), ("palette", ["-colors", "16", "-type", "Palette"])])


def make_xwd(work):
    return converted(work, "xwd", [("truecolor", []), ("palette", ["-colors", "16", "-type", "Palette"])])


# --- sound and video --------------------------------------------------------------------------

def make_wav(work):
    out = []
    for name, args in [("pcm8.wav", ["-b", "8", "-e", "unsigned"]), ("pcm24.wav", ["-b", "24"]),
                       ("float.wav", ["-e", "float", "-b", "32"]), ("ulaw.wav", ["-e", "u-law"])]:
        path = os.path.join(work, name)
        run("sox", "-n", "-r", "8000", "-c", "2", *args, path, "synth", "0.1", "sine", "300")
        out.append(path)
    path = os.path.join(work, "python-wave.wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(11025)
        w.writeframes(bytes(range(256)) * 8)
    out.append(path)
    return out


def sox_to(work, ext, variants):
    src = a_sound(work)
    out = []
    for name, args in variants:
        path = os.path.join(work, f"{name}.{ext}")
        run("sox", src, *args, path)
        out.append(path)
    return out


def make_au(work):
    return sox_to(work, "au", [("pcm16", []), ("ulaw", ["-e", "u-law"]), ("float", ["-e", "float", "-b", "32"])])


def make_voc(work):
    return sox_to(work, "voc", [("pcm8", ["-b", "8"]), ("pcm16", ["-b", "16"]), ("stereo", ["-c", "2"])])


def ffmpeg(*args):
    return run("ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-bitexact", *args)


def make_ogg(work):
    out = sox_to(work, "ogg", [("vorbis", ["-C", "3"])])
    opus = os.path.join(work, "opus.ogg")
    ffmpeg("-i", a_sound(work), "-c:a", "libopus", opus)
    return out + [opus]


VIDEO = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=1"]
AUDIO = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=1"]


def make_avi(work):
    mjpeg, raw = os.path.join(work, "mjpeg.avi"), os.path.join(work, "raw.avi")
    ffmpeg(*VIDEO, *AUDIO, "-c:v", "mjpeg", "-c:a", "pcm_s16le", "-shortest", mjpeg)
    ffmpeg(*VIDEO, "-c:v", "rawvideo", "-pix_fmt", "rgb24", "-frames:v", "2", raw)
    return [mjpeg, raw]


def make_mov(work):
    mov, mp4 = os.path.join(work, "mjpeg.mov"), os.path.join(work, "mpeg4.mp4")
    ffmpeg(*VIDEO, *AUDIO, "-c:v", "mjpeg", "-c:a", "pcm_s16le", "-shortest", mov)
    ffmpeg(*VIDEO, "-c:v", "mpeg4", "-frames:v", "3", mp4)
    return [mov, mp4]


def make_ivf(work):
    vp8, vp9 = os.path.join(work, "vp8.ivf"), os.path.join(work, "vp9.ivf")
    ffmpeg(*VIDEO, "-c:v", "libvpx", "-frames:v", "3", "-f", "ivf", vp8)
    ffmpeg(*VIDEO, "-c:v", "libvpx-vp9", "-frames:v", "2", "-f", "ivf", vp9)
    return [vp8, vp9]


def an_mp3(work, name, *args, cover=False):
    path = os.path.join(work, name)
    inputs = [*AUDIO]
    if cover:
        inputs += ["-i", a_picture(work), "-map", "0:a", "-map", "1:v", "-c:v", "copy",
                   "-metadata:s:v", "title=Album cover", "-metadata:s:v", "comment=Cover (front)"]
    ffmpeg(*inputs, "-c:a", "libmp3lame", "-b:a", "32k", "-metadata", "title=Differential",
           "-metadata", "artist=skelcodec", "-metadata", "album=Kaitai", "-metadata", "track=3",
           "-metadata", "comment=made by ffmpeg", "-metadata", "TXXX=user text", *args, path)
    return path


def make_id3v2_3(work):
    return [an_mp3(work, "v23.mp3", "-id3v2_version", "3"),
            an_mp3(work, "v23-cover.mp3", "-id3v2_version", "3", cover=True)]


def make_id3v2_4(work):
    return [an_mp3(work, "v24.mp3", "-id3v2_version", "4"),
            an_mp3(work, "v24-cover.mp3", "-id3v2_version", "4", cover=True)]


def make_id3v1(work):
    return [an_mp3(work, "v1.mp3", "-id3v2_version", "0", "-write_id3v1", "1")]


# --- archives ---------------------------------------------------------------------------------

def make_gzip(work):
    tree = a_source_tree(work)
    named = os.path.join(work, "hello.txt.gz")
    with open(named, "wb") as f:
        f.write(run("gzip", "-9", "-c", os.path.join(tree, "hello.txt")))
    py = os.path.join(work, "python.gz")
    with gzip.GzipFile(py, "wb", mtime=0) as f:
        f.write(bytes(range(256)) * 10)
    return [named, py]


def make_zip(work):
    tree = a_source_tree(work)
    deflated, stored, py = (os.path.join(work, n) for n in ("deflated.zip", "stored.zip", "python.zip"))
    run("zip", "-q", "-r", "-y", deflated, ".", cwd=tree)
    run("zip", "-q", "-r", "-0", "-z", stored, ".", cwd=tree, stdin=b"an archive comment\n")
    import zipfile
    with zipfile.ZipFile(py, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.txt", "python's zipfile\n" * 10)
        z.writestr("dir/b.bin", bytes(range(100)))
    return [deflated, stored, py]


def make_cpio(work):
    tree = a_source_tree(work)
    names = subprocess.run(["find", "."], cwd=tree, capture_output=True).stdout
    path = os.path.join(work, "old-binary.cpio")
    with open(path, "wb") as f:
        f.write(run("cpio", "--quiet", "-o", "-H", "bin", cwd=tree, stdin=names))
    return [path]


RPM_SPEC = """\
Name: differential-{name}
Version: 1.2.3
Release: 4
Summary: A package made for skelcodec's differential test
License: MIT
URL: https://example.org/differential
{arch}
%description
A small package of the differential test: {what}.

%install
mkdir -p %{{buildroot}}/usr/share/differential %{{buildroot}}/usr/bin
printf 'hello, differential world\\n%.0s' $(seq 20) > %{{buildroot}}/usr/share/differential/hello.txt
head -c 3000 /dev/zero | tr '\\0' 'x' > %{{buildroot}}/usr/share/differential/{name}.dat
printf '#!/bin/sh\\necho differential\\n' > %{{buildroot}}/usr/bin/differential-{name}
chmod 755 %{{buildroot}}/usr/bin/differential-{name}

%files
/usr/share/differential
/usr/bin/differential-{name}

%changelog
* Tue Jan 02 2024 Differential <differential@example.org> - 1.2.3-4
- First package.
"""


def make_rpm(work):
    """rpmbuild of two small packages: one for the build machine's architecture with the default
    payload compression (zstd) and its source package, one noarch with a gzip payload."""
    top = os.path.join(work, "rpmbuild")
    shutil.rmtree(top, ignore_errors=True)
    out = []
    for name, arch, payload, what in [("binary", "", "w19.zstdio", "the default architecture, zstd payload"),
                                      ("noarch", "BuildArch: noarch\n", "w9.gzdio", "noarch, gzip payload")]:
        spec = os.path.join(work, f"{name}.spec")
        with open(spec, "w") as f:
            f.write(RPM_SPEC.format(name=name, arch=arch, what=what))
        run("rpmbuild", "-ba", "--nodeps", "--quiet", "--define", f"_topdir {top}",
            "--define", f"_binary_payload {payload}", "--define", "_build_id_links none", spec)
    out += sorted(glob.glob(os.path.join(top, "RPMS", "*", "*.rpm")))
    out += sorted(glob.glob(os.path.join(top, "SRPMS", "*.rpm")))[:1]
    return out


def make_ext2(work):
    tree = a_source_tree(work)
    out = []
    for name, args in [("ext2-1k.img", ["-b", "1024"]), ("ext2-4k.img", ["-b", "4096"])]:
        path = os.path.join(work, name)
        if os.path.exists(path):
            os.remove(path)
        run("mkfs.ext2", "-q", "-F", *args, "-d", tree, "-E", "root_owner=0:0", path, "1024k" if "4k" not in name else "2000k")
        out.append(path)
    return out


def make_android_sparse(work):
    out = []
    for image in make_ext2(work):
        path = image.replace(".img", ".simg")
        run("img2simg", image, path)
        out.append(path)
    return out


def make_android_img(work):
    kernel, ramdisk = os.path.join(work, "kernel"), os.path.join(work, "ramdisk")
    with open(kernel, "wb") as f:
        f.write(b"\x7fKERNEL" + bytes(range(256)) * 20)
    with open(ramdisk, "wb") as f:
        f.write(gzip.compress(b"ramdisk" * 100, mtime=0))
    out = []
    for version in (0, 1, 2):
        path = os.path.join(work, f"boot-v{version}.img")
        args = ["--kernel", kernel, "--ramdisk", ramdisk, "--cmdline", "console=ttyS0",
                "--header_version", version, "--os_version", "12.0.0", "--os_patch_level", "2024-01",
                "-o", path]
        if version == 2:
            dtb = make_dtb(work)[0]
            args += ["--dtb", dtb]
        run("mkbootimg", *args)
        out.append(path)
    return out


def make_cramfs(work):
    path = os.path.join(work, "tree.cramfs")
    run("mkfs.cramfs", "-n", "differential", a_source_tree(work), path)
    return [path]


def make_vfat(work):
    tree = a_source_tree(work)
    out = []
    # FAT32 needs 65525 clusters (33 MB at least): too large for this test's files.
    for fat, size in (("12", 1440), ("16", 2100)):
        path = os.path.join(work, f"fat{fat}.img")
        if os.path.exists(path):
            os.remove(path)
        run("mkfs.vfat", "-C", "-F", fat, "-s", "1", "-n", f"FAT{fat}", "-i", "12345678", path, size)
        run("mcopy", "-i", path, "-s", os.path.join(tree, "hello.txt"), os.path.join(tree, "sub"), "::")
        out.append(path)
    return out


def make_iso9660(work):
    tree = a_source_tree(work)
    out = []
    for name, args in [("plain.iso", []), ("rock-ridge.iso", ["-R"]), ("joliet.iso", ["-J", "-R"])]:
        path = os.path.join(work, name)
        run("genisoimage", "-quiet", "-V", "DIFFERENTIAL", *args, "-o", path, tree)
        out.append(path)
    return out


def an_empty_disk(work, name, size_mib=2):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.truncate(size_mib * 1024 * 1024)
    return path


def make_gpt(work):
    two, five = an_empty_disk(work, "gpt.img"), an_empty_disk(work, "gpt-five.img")
    run("sgdisk", "-a", "1", "-n", "1:34:1000", "-t", "1:8300", "-c", "1:first", "-n", "2:1001:0", "-t", "2:ef00",
        "-c", "2:EFI system", "-U", "11111111-2222-3333-4444-555555555555", two)
    args = []
    for i in range(1, 6):
        args += ["-n", f"{i}:{34 + (i - 1) * 600}:{33 + i * 600}", "-c", f"{i}:partition {i}", "-A", f"{i}:set:2"]
    run("sgdisk", "-a", "1", *args, five)
    return [two, five]


def make_mbr(work):
    two, extended = an_empty_disk(work, "mbr.img"), an_empty_disk(work, "mbr-extended.img")
    run("sfdisk", "--quiet", "--no-reread", two, stdin=b"label: dos\nlabel-id: 0x12345678\n"
        b"start=63, size=1000, type=83, bootable\nstart=1100, size=2000, type=c\n")
    run("sfdisk", "--quiet", "--no-reread", extended, stdin=b"label: dos\n"
        b"start=2048, size=500, type=7\nstart=2600, size=1400, type=5\nstart=2700, size=300, type=82\n")
    return [two, extended]


def a_raw_disk(work):
    path = os.path.join(work, "disk.raw")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(b"disk image content " * 3000)
            f.truncate(4 * 1024 * 1024)
    return path


def make_vdi(work):
    dynamic, static = os.path.join(work, "dynamic.vdi"), os.path.join(work, "static.vdi")
    run("qemu-img", "convert", "-O", "vdi", a_raw_disk(work), dynamic)
    run("qemu-img", "create", "-q", "-f", "vdi", "-o", "static=on", static, "1M")
    return [dynamic, static]


def make_vmdk(work):
    out = []
    for sub in ("monolithicSparse", "streamOptimized"):
        path = os.path.join(work, f"{sub}.vmdk")
        run("qemu-img", "convert", "-O", "vmdk", "-o", f"subformat={sub}", a_raw_disk(work), path)
        out.append(path)
    return out


def make_luks(work):
    out = []
    for name, args in [("luks1.img", []),
                       ("luks1-cbc-sha512.img", ["--cipher", "aes-cbc-essiv:sha256", "--key-size", "256",
                                                 "--hash", "sha512"])]:
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.truncate(2 * 1024 * 1024)
        run("cryptsetup", "luksFormat", "--batch-mode", "--type", "luks1", "--pbkdf-force-iterations", "1000",
            *args, "--key-file", "-", path, stdin=b"differential")
        out.append(path)
    return out


def make_lvm2(work):
    """LVM physical volumes on a loop device backed by a 3 MiB file: one in a volume group with
    two logical volumes (created inactive: activation needs device-mapper, which the test does
    not use), one without a volume group. Needs root (losetup); LVM is told to look at the loop
    device only and to keep no metadata backups in /etc/lvm."""
    if shutil.which("losetup") is None or shutil.which("pvcreate") is None:
        raise Skip("losetup or LVM (lvm2) is not installed")
    config = "global{activation=0} backup{backup=0 archive=0} devices{obtain_device_list_from_udev=0}"
    out = []
    for name, vg in (("vg-two-lvs.img", "differential"), ("pv-only.img", None)):
        path = an_empty_disk(work, name, size_mib=3)
        loop = run("losetup", "--find", "--show", path).decode().strip()
        try:
            lvm = ["--devices", loop, "--config", config]
            run("pvcreate", *lvm, "-y", loop)
            if vg:
                run("vgcreate", *lvm, "-s", "512k", vg, loop)
                run("lvcreate", *lvm, "-an", "-Zn", "-y", "-n", "data", "-L", "1m", vg)
                run("lvcreate", *lvm, "-an", "-Zn", "-y", "-n", "rest", "-l", "100%FREE", vg)
        finally:
            subprocess.run(["losetup", "-d", loop], capture_output=True)
        out.append(path)
    return out


def make_uimage(work):
    kernel = os.path.join(work, "kernel.bin")
    with open(kernel, "wb") as f:
        f.write(bytes(range(256)) * 16)
    out = []
    for name, args in [("kernel.uimg", ["-A", "arm", "-O", "linux", "-T", "kernel", "-C", "none",
                                        "-a", "0x8000", "-e", "0x8000", "-n", "Differential kernel"]),
                       ("ramdisk.uimg", ["-A", "arm64", "-O", "linux", "-T", "ramdisk", "-C", "gzip",
                                         "-n", "ramdisk"])]:
        path = os.path.join(work, name)
        run("mkimage", *args, "-d", kernel, path)
        out.append(path)
    return out


# --- executables, fonts, hardware ------------------------------------------------------------

def make_elf(work):
    out = []
    for name in ("true", "cat", "env"):
        path = shutil.which(name)
        if path:
            out.append(os.path.realpath(path))
    libs = [p for p in find("/usr/lib/x86_64-linux-gnu/*.so*") if os.path.getsize(p) < 200_000]
    out += spread(libs, 2)
    src = os.path.join(work, "object.c")
    with open(src, "w") as f:
        f.write("int counter = 3; static const char text[] = \"differential\";\n"
                "int next(int x) { return x + counter + text[0]; }\n")
    obj = os.path.join(work, "object.o")
    try:
        run("cc", "-c", "-g", "-O1", src, "-o", obj)
        out.append(obj)
    except (Skip, RuntimeError):
        pass
    return out


def make_java_class(work):
    src = os.path.join(work, "Differential.java")
    with open(src, "w") as f:
        f.write(textwrap.dedent("""\
            import java.util.List;
            public class Differential implements Runnable {
                public static final long BIG = 1L << 40;
                static final double PI = 3.14159;
                static final float F = 2.5f;
                static final String NAME = "kaitai \\u00e9t\\u00e9";
                enum Colour { RED, GREEN }
                interface Shape { double area(); }
                class Inner { int x = 1; }
                private final List<String> names;
                Differential(List<String> names) { this.names = names; }
                public void run() { for (String n : names) System.out.println(n + BIG); }
                @Deprecated public static int sum(int... xs) { int s = 0; for (int x : xs) s += x; return s; }
                public static void main(String[] args) { new Differential(List.of(args)).run(); }
            }
            """))
    classes = os.path.join(work, "classes")
    os.makedirs(classes, exist_ok=True)
    run("javac", "-g", "-d", classes, src)
    return sorted(glob.glob(os.path.join(classes, "*.class")))


SMALI = {
    "Differential.smali": """\
        .class public LDifferential;
        .super Ljava/lang/Object;
        .implements Ljava/lang/Runnable;
        .source "Differential.java"

        .field public static final BIG:J = 0x10000000000L
        .field static final NAME:Ljava/lang/String; = "kaitai \\u00e9t\\u00e9"
        .field private final names:[Ljava/lang/String;
        .field private count:I

        .method public constructor <init>([Ljava/lang/String;)V
            .registers 2
            invoke-direct {p0}, Ljava/lang/Object;-><init>()V
            iput-object p1, p0, LDifferential;->names:[Ljava/lang/String;
            return-void
        .end method

        .method public run()V
            .registers 6
            iget-object v0, p0, LDifferential;->names:[Ljava/lang/String;
            array-length v1, v0
            const/4 v2, 0x0
            :loop
            if-ge v2, v1, :done
            aget-object v3, v0, v2
            sget-object v4, Ljava/lang/System;->out:Ljava/io/PrintStream;
            invoke-virtual {v4, v3}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
            add-int/lit8 v2, v2, 0x1
            goto :loop
            :done
            return-void
        .end method

        .method public static sum([I)I
            .registers 5
            const/4 v0, 0x0
            array-length v1, p0
            const/4 v2, 0x0
            :loop
            if-ge v2, v1, :done
            aget v3, p0, v2
            add-int/2addr v0, v3
            add-int/lit8 v2, v2, 0x1
            goto :loop
            :done
            return v0
        .end method
        """,
    "Differential$Colour.smali": """\
        .class final enum LDifferential$Colour;
        .super Ljava/lang/Enum;

        .field public static final enum RED:LDifferential$Colour;
        .field public static final enum GREEN:LDifferential$Colour;

        .method private constructor <init>(Ljava/lang/String;I)V
            .registers 3
            invoke-direct {p0, p1, p2}, Ljava/lang/Enum;-><init>(Ljava/lang/String;I)V
            return-void
        .end method
        """,
    "Shape.smali": """\
        .class public interface abstract LShape;
        .super Ljava/lang/Object;

        .method public abstract area()D
        .end method
        """,
}


def make_dex(work):
    """smali (the assembler of Dalvik bytecode) of small classes: one class alone, then three
    (a class with fields, constants and loops, an enum, an interface) in one file."""
    sources = []
    for name, text in SMALI.items():
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        sources.append(path)
    one, three = os.path.join(work, "one.dex"), os.path.join(work, "three.dex")
    run("smali", "assemble", "-o", one, sources[0])
    run("smali", "assemble", "--api", "26", "-o", three, *sources)
    return [one, three]


def make_pcf(work):
    fonts = find("/usr/share/fonts/X11/misc/*.pcf.gz")
    if not fonts:
        raise Skip("no X11 PCF fonts installed (xfonts-base)")
    out = []
    for font in spread(sorted(fonts, key=os.path.getsize)[:200], 3):
        path = os.path.join(work, os.path.basename(font)[:-3])
        with gzip.open(font) as src, open(path, "wb") as dst:
            dst.write(src.read())
        out.append(path)
    return out


def make_grub2_font(work):
    ttfs = find("/usr/share/fonts/**/*.ttf")
    if not ttfs:
        raise Skip("no TrueType font installed")
    out = []
    for size in (10, 16):
        path = os.path.join(work, f"font-{size}.pf2")
        run("grub-mkfont", "-s", size, "-r", "0x20-0x7e", "-o", path, ttfs[0])
        out.append(path)
    return out


def make_dtb(work):
    out = []
    for name, body in [("board", """
        / { model = "differential board"; compatible = "skelcodec,diff"; #address-cells = <1>; #size-cells = <1>;
            memory@0 { device_type = "memory"; reg = <0x0 0x10000000>; };
            chosen { bootargs = "console=ttyS0"; };
            soc { uart0: serial@1000 { compatible = "ns16550a"; reg = <0x1000 0x100>; status = "okay"; }; };
            aliases { serial0 = &uart0; };
        };"""), ("reserved", """
        /memreserve/ 0x10000 0x1000;
        / { empty-prop; bytes = [01 02 03]; strings = "a", "bc"; };""")]:
        dts, path = os.path.join(work, name + ".dts"), os.path.join(work, name + ".dtb")
        with open(dts, "w") as f:
            f.write("/dts-v1/;\n" + textwrap.dedent(body) + "\n")
        run("dtc", "-I", "dts", "-O", "dtb", "-q", "-o", path, dts)
        out.append(path)
    return out


# --- network, security, serialization, logs ---------------------------------------------------

def capture(path, bpf_filter, traffic, snaplen=200):
    """tcpdump on the loopback interface while `traffic()` runs."""
    proc = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-c", "30", "-s", str(snaplen), "-w", path, bpf_filter],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        import select
        import time
        deadline = time.time() + 10  # until tcpdump says it listens (it is slow to start on a busy machine)
        while time.time() < deadline and proc.poll() is None:
            if select.select([proc.stderr], [], [], 0.5)[0] and "listening on" in proc.stderr.readline():
                break
        time.sleep(0.5)
        traffic()
        time.sleep(1.0)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return path


def make_pcap(work):
    if shutil.which("tcpdump") is None:
        raise Skip("tcpdump is not installed")
    import socket

    def udp():
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for i in range(5):
            sock.sendto(b"differential %d" % i, ("127.0.0.1", 9))
        sock.close()

    def tcp():
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        client = socket.create_connection(server.getsockname())
        conn, _ = server.accept()
        client.sendall(b"hello over tcp")
        conn.recv(100)
        client.close()
        conn.close()
        server.close()

    return [capture(os.path.join(work, "udp-icmp.pcap"), "host 127.0.0.1 and not tcp", udp),
            capture(os.path.join(work, "tcp.pcap"), "tcp and host 127.0.0.1", tcp)]


def make_ssh_public_key(work):
    out = []
    for kind, bits in (("rsa", "1024"), ("ecdsa", "256"), ("ed25519", None)):
        key = os.path.join(work, f"id_{kind}")
        for p in (key, key + ".pub"):
            if os.path.exists(p):
                os.remove(p)
        run("ssh-keygen", "-q", "-t", kind, *(["-b", bits] if bits else []), "-N", "", "-C", "differential", "-f", key)
        with open(key + ".pub") as f:
            blob = base64.b64decode(f.read().split()[1])
        path = os.path.join(work, f"{kind}.key")
        with open(path, "wb") as f:
            f.write(blob)
        out.append(path)
    return out


def make_der(work):
    out = []
    for pem in spread(find("/etc/ssl/certs/*.pem"), 3):
        path = os.path.join(work, os.path.basename(pem)[:-4] + ".der")
        run("openssl", "x509", "-in", pem, "-outform", "DER", "-out", path)
        out.append(path)
    key = os.path.join(work, "ec-key.der")
    run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-outform", "DER", "-out", key)
    out.append(key)
    return out


def make_sqlite(work):
    import sqlite3
    out = []
    for page_size in (512, 1024, 4096):
        path = os.path.join(work, f"table-{page_size}.sqlite")
        if os.path.exists(path):
            os.remove(path)
        c = sqlite3.connect(path)
        c.execute(f"pragma page_size = {page_size}")
        c.execute("create table t (id integer primary key, n integer, s text, b blob, r real, z)")
        for i in range(60):
            c.execute("insert into t (n, s, b, r, z) values (?, ?, ?, ?, ?)",
                      (i * 7919 - 100000 * (i % 3), "row %d " % i * (i % 5), bytes(range(i % 17)), i / 7, None))
        c.execute("create index t_n on t (n)")
        c.commit()
        c.close()
        out.append(path)
    path = os.path.join(work, "cli.db")
    if os.path.exists(path):
        os.remove(path)
    run("sqlite3", path, "create table kv (k text primary key, v) without rowid; "
        "insert into kv values ('a', 1), ('b', x'0102'), ('c', 2.5);")
    return out + [path]


PICKLED = {"list": [1, -2, 3.5, None, True], "text": "gallery", "bytes": b"\x00\x01", "big": 2**70,
           "tuple": (1, "two"), "nested": {"a": [{"b": 1.25}]}, "set": frozenset({1, 2})}


def make_pickle(work):
    import pickle
    out = []
    for protocol in range(6):
        path = os.path.join(work, f"object-{protocol}.pickle")
        with open(path, "wb") as f:
            pickle.dump(PICKLED, f, protocol=protocol)
        out.append(path)
    return out


def make_msgpack(work):
    python = os.path.join(VENV, "bin", "python")
    script = textwrap.dedent("""\
        import msgpack, sys
        docs = {"map.msgpack": {"int": 1, "neg": -33, "big": 2**40, "float": 1.5, "str": "text",
                                "bin": b"\\x00\\x01", "list": [True, False, None], "nested": {"a": [1, 2]}},
                "array.msgpack": list(range(20)) + ["x" * 40, -2**40, 0.25]}
        for name, doc in docs.items():
            with open(sys.argv[1] + "/" + name, "wb") as f:
                f.write(msgpack.packb(doc, use_bin_type=True))
        """)
    run(python, "-c", script, work)
    return [os.path.join(work, "map.msgpack"), os.path.join(work, "array.msgpack")]


def make_ruby_marshal(work):
    out = []
    for name, expr in [("hash.marshal", '{"a" => 1, :sym => [1, -300, 2**40, 1.5, nil, true], "s" => "text"}'),
                       ("struct.marshal", 'Struct.new("Point", :x, :y).new(3, -4)'),
                       ("string.marshal", '"plain \\xff".b')]:
        path = os.path.join(work, name)
        run("ruby", "-e", f"File.binwrite(ARGV[0], Marshal.dump({expr}))", path)
        out.append(path)
    return out


def make_protobuf(work):
    proto = os.path.join(work, "differential.proto")
    with open(proto, "w") as f:
        f.write(textwrap.dedent("""\
            syntax = "proto3";
            message Inner { string name = 1; repeated int32 values = 2; }
            message Outer {
              int32 small = 1; int64 negative = 2; uint64 big = 3; sint32 zigzag = 4;
              fixed32 f32 = 5; fixed64 f64 = 6; double real = 7; float single = 8;
              bool flag = 9; string text = 10; bytes blob = 11; Inner inner = 12;
              repeated Inner many = 13; repeated uint32 packed = 14;
            }
            """))
    out = []
    for name, text in [("outer.pb", 'small: 150 negative: -2 big: 18446744073709551615 zigzag: -3 '
                                    'f32: 7 f64: 9 real: 1.5 single: 2.25 flag: true text: "protobuf" '
                                    'blob: "\\000\\001" inner { name: "in" values: [1, 2, 3] } '
                                    'many { name: "a" } many { name: "b" values: 300 } packed: [1, 1000, 100000]'),
                       ("inner.pb", 'name: "only the inner message" values: [-1, 0, 1]')]:
        path = os.path.join(work, name)
        message = "Inner" if name == "inner.pb" else "Outer"
        with open(path, "wb") as f:
            f.write(run("protoc", f"--proto_path={work}", f"--encode={message}", proto, stdin=text.encode()))
        out.append(path)
    return out


def make_php(work):
    out = []
    for name, expr in [("array.ser", '["a" => 1, "b" => [true, false, null], 3 => -2.5, "s" => "text"]'),
                       ("object.ser", '(object)["x" => 1, "y" => "two"]'),
                       ("string.ser", '"plain string"')]:
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(run("php", "-r", f"echo serialize({expr});"))
        out.append(path)
    return out


def make_efivar(work):
    """A signature list as efivarfs shows a UEFI variable: its 4-byte attributes (non-volatile,
    boot and run-time access, time-based authenticated writes), then the list that efitools'
    cert-to-efi-sig-list makes of a certificate openssl made."""
    key, cert = os.path.join(work, "db.key"), os.path.join(work, "db.crt")
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=differential db/",
        "-days", "365", "-keyout", key, "-out", cert)
    esl = os.path.join(work, "db.esl")
    run("cert-to-efi-sig-list", "-g", "11111111-2222-3333-4444-555555555555", cert, esl)
    path = os.path.join(work, "db-var.bin")
    with open(esl, "rb") as src, open(path, "wb") as f:
        f.write((0x27).to_bytes(4, "little") + src.read())
    return [path]


def make_dicom(work):
    jpg = os.path.join(work, "picture.jpg")
    run(CONVERT, a_picture(work), jpg)
    out = []
    for name, args in [("image.dcm", []), ("no-padding.dcm", ["-p"])]:
        path = os.path.join(work, name)
        run("img2dcm", *args, "-k", "PatientName=Differential^Test", jpg, path)
        out.append(path)
    return out


def make_mcap(work):
    """The mcap package's Writer (installed in the venv by kaitai/setup.sh): a chunked file
    (zstd, the default, and uncompressed chunks) with two channels and their schemas, an
    attachment and metadata, and an unchunked one."""
    python = os.path.join(VENV, "bin", "python")
    script = textwrap.dedent("""\
        import json, sys
        from mcap.writer import Writer, CompressionType
        for name, chunked, compression in [("chunked-zstd.mcap", True, CompressionType.ZSTD),
                                           ("chunked-none.mcap", True, CompressionType.NONE),
                                           ("unchunked.mcap", False, CompressionType.NONE)]:
            with open(sys.argv[1] + "/" + name, "wb") as f:
                w = Writer(f, use_chunking=chunked, compression=compression, chunk_size=600)
                w.start(profile="differential", library="skelcodec test")
                schema = w.register_schema(name="Point", encoding="jsonschema",
                                           data=json.dumps({"type": "object"}).encode())
                points = w.register_channel(topic="/points", message_encoding="json", schema_id=schema,
                                            metadata={"unit": "m"})
                raw = w.register_channel(topic="/raw", message_encoding="cdr", schema_id=0)
                for i in range(30):
                    w.add_message(points, log_time=1_000_000_000 + i * 1000, publish_time=1_000_000_000 + i * 1000,
                                  data=json.dumps({"x": i, "y": -i}).encode(), sequence=i)
                    if i % 3 == 0:
                        w.add_message(raw, log_time=1_000_000_000 + i * 1000 + 1, publish_time=0,
                                      data=bytes(range(i)), sequence=i // 3)
                w.add_attachment(create_time=1, log_time=2, name="note.txt", media_type="text/plain",
                                 data=b"an attachment")
                w.add_metadata(name="run", data={"by": "differential", "n": "30"})
                w.finish()
        """)
    run(python, "-c", script, work)
    return [os.path.join(work, n) for n in ("chunked-zstd.mcap", "chunked-none.mcap", "unchunked.mcap")]


def make_utmp(work):
    path = os.path.join(work, "wtmp")
    records = (
        "[2] [00000] [~~  ] [reboot  ] [~           ] [6.1.0-differential  ] [0.0.0.0        ] [2024-01-02T03:04:05,000000+00:00]\n"
        "[7] [01234] [ts/0] [alice   ] [pts/0       ] [192.168.0.2         ] [192.168.0.2    ] [2024-01-02T03:05:00,123456+00:00]\n"
        "[8] [01234] [ts/0] [        ] [pts/0       ] [                    ] [0.0.0.0        ] [2024-01-02T04:00:00,000000+00:00]\n"
    )
    with open(path, "wb") as f:
        f.write(run("utmpdump", "-r", stdin=records.encode()))
    return [path]


# --- producers that are Python libraries (installed in the venv by kaitai/setup.sh) -------------

def venv_script(work, script, names):
    """Runs `script` with the venv's Python in `work` and returns the files it was to make."""
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        raise Skip("the venv of kaitai/setup.sh is not installed")
    run(python, "-", work, stdin=("import os, sys\nos.chdir(sys.argv[1])\n" + textwrap.dedent(script)).encode())
    return [os.path.join(work, n) for n in names]


def make_bson(work):
    """pymongo's bson: every BSON type (ObjectId, dates, binary subtypes, regex, code with scope,
    timestamps, Decimal128, min and max keys), nested documents and arrays."""
    return venv_script(work, """\
        import bson, datetime, uuid
        from bson import ObjectId, Binary, Code, Regex, Timestamp, Decimal128, Int64, MinKey, MaxKey
        every = {"s": "text \\u00e9", "i": 1, "neg": -7, "l": Int64(1 << 40), "d": 2.5, "t": True, "f": False,
                 "n": None, "oid": ObjectId("0123456789abcdef01234567"),
                 "dt": datetime.datetime(2024, 1, 2, 3, 4, 5, 678000), "bin": Binary(b"\\x00\\x01\\x02"),
                 "uuid": Binary(uuid.UUID(int=5).bytes, 4), "arr": [1, "two", {"three": 3.0}],
                 "doc": {"nested": {"deep": -1}}, "re": Regex("^a.*b$", "i"), "code": Code("x + 1"),
                 "scope": Code("x + y", {"y": 2}), "ts": Timestamp(1704164645, 7), "dec": Decimal128("1.25"),
                 "min": MinKey(), "max": MaxKey()}
        docs = {"every-type.bson": every, "small.bson": {"hello": "world"},
                "array.bson": {"values": list(range(40)) + [x / 4 for x in range(10)]}}
        for name, doc in docs.items():
            open(name, "wb").write(bson.encode(doc))
        """, ["every-type.bson", "small.bson", "array.bson"])


def make_nbt(work):
    """nbtlib: uncompressed NBT (Minecraft's named binary tags), every tag type."""
    return venv_script(work, """\
        import nbtlib
        from nbtlib.tag import (Compound, String, Int, Byte, Short, Long, Float, Double, List, ByteArray,
                                IntArray, LongArray)
        level = Compound({"name": String("differential"), "b": Byte(-3), "s": Short(300), "i": Int(70000),
                          "l": Long(1 << 40), "f": Float(1.5), "d": Double(-2.25), "ints": List[Int]([1, 2, 3]),
                          "bytes": ByteArray([1, 2, 3]), "int_array": IntArray([1, -1]),
                          "long_array": LongArray([1 << 33, -5]), "sub": Compound({"x": Int(1)}),
                          "compounds": List[Compound]([Compound({"a": Byte(1)}), Compound({"b": String("x")})]),
                          "empty": List[String]([])})
        nbtlib.File(level, root_name="Level").save("level.nbt", gzipped=False)
        nbtlib.File(Compound({"hello": String("world")}), root_name="").save("small.nbt", gzipped=False)
        """, ["level.nbt", "small.nbt"])


def make_ds_store(work):
    """ds-store: Finder's .DS_Store with icon locations, view options (a plist) and a long."""
    return venv_script(work, """\
        from ds_store import DSStore
        with DSStore.open("icons.DS_Store", "w+") as d:
            d["hello.txt"]["Iloc"] = (104, 116)
            d["sub"]["Iloc"] = (300, 116)
            d["."]["icvp"] = {"viewOptionsVersion": 1, "iconSize": 64.0, "arrangeBy": "none",
                              "backgroundType": 0, "gridSpacing": 100.0}
            d["."]["vSrn"] = ("long", 1)
            d["."]["bwsp"] = {"ShowStatusBar": False, "WindowBounds": "{{10, 20}, {640, 480}}"}
        with DSStore.open("many.DS_Store", "w+") as d:
            for i in range(60):
                d["file %02d.txt" % i]["Iloc"] = (i * 10, 50)
        """, ["icons.DS_Store", "many.DS_Store"])


def make_lnk(work):
    """pylnk3: Windows shortcuts to a local program (arguments, description, icon, working
    directory) and to a file on a network share."""
    return venv_script(work, r"""
        import pylnk3
        pylnk3.for_file(r"C:\Windows\System32\notepad.exe", "notepad.lnk", arguments="readme.txt",
                        description="differential", icon_file=r"C:\Windows\notepad.exe", icon_index=1,
                        work_dir=r"C:\Users\Public")
        pylnk3.for_file(r"C:\Program Files\Differential\tool.exe", "plain.lnk")
        """, ["notepad.lnk", "plain.lnk"])


def make_bitcoin(work):
    """python-bitcoinlib: signed pay-to-public-key-hash transactions (uncompressed public keys,
    as the schema's script_sig expects), one and two inputs, verified by its script engine."""
    return venv_script(work, """\
        import hashlib
        from bitcoin import SelectParams
        from bitcoin.core import lx, COIN, COutPoint, CMutableTxOut, CMutableTxIn, CMutableTransaction, Hash160
        from bitcoin.core.script import CScript, OP_DUP, OP_HASH160, OP_EQUALVERIFY, OP_CHECKSIG, SignatureHash, SIGHASH_ALL
        from bitcoin.core.scripteval import VerifyScript, SCRIPT_VERIFY_P2SH
        from bitcoin.wallet import CBitcoinAddress, CBitcoinSecret
        SelectParams("mainnet")
        keys = [CBitcoinSecret.from_secret_bytes(hashlib.sha256(b"differential %d" % i).digest(), compressed=False)
                for i in range(2)]
        txids = ["7e195aa3de827814f172c362fcf838d92ba10e3f9fdd9c3ecaf79522b311b22d",
                 "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"]
        for name, n_in, n_out in (("one-input.tx", 1, 1), ("two-inputs.tx", 2, 2)):
            ins = [CMutableTxIn(COutPoint(lx(txids[i]), i)) for i in range(n_in)]
            outs = [CMutableTxOut(int((0.001 + i) * COIN),
                                  CBitcoinAddress("1C7zdTfnkzmr13HfA2vNm5SJYRK6nEKyq8").to_scriptPubKey())
                    for i in range(n_out)]
            tx = CMutableTransaction(ins, outs)
            for i, txin in enumerate(ins):
                spent = CScript([OP_DUP, OP_HASH160, Hash160(keys[i].pub), OP_EQUALVERIFY, OP_CHECKSIG])
                sig = keys[i].sign(SignatureHash(spent, tx, i, SIGHASH_ALL)) + bytes([SIGHASH_ALL])
                txin.scriptSig = CScript([sig, keys[i].pub])
                VerifyScript(txin.scriptSig, spent, tx, i, (SCRIPT_VERIFY_P2SH,))
            open(name, "wb").write(tx.serialize())
        """, ["one-input.tx", "two-inputs.tx"])


def make_midi(work):
    """Standard MIDI files: abc2midi of ABC tunes (one voice, and two voices with chords), mido
    (type 0 and type 1, with meta events, controllers, pitch bends and a SysEx)."""
    out = []
    for name, abc in [("tune.mid", "X:1\nT:Differential\nM:3/4\nL:1/8\nQ:1/4=120\nK:G\n"
                                   "GAB c2 d | e2 d2 B2 | G6 |]\n"),
                      ("voices.mid", "X:2\nT:Two voices\nM:4/4\nL:1/4\nK:D\n%%MIDI program 1 40\n"
                                     "V:1\nd e f g | [dfa]4 |]\nV:2\nD2 A,2 | D4 |]\n")]:
        src, path = os.path.join(work, name + ".abc"), os.path.join(work, name)
        with open(src, "w") as f:
            f.write(abc)
        run("abc2midi", src, "-o", path)
        out.append(path)
    return out + venv_script(work, """\
        import mido
        for kind in (0, 1):
            mf = mido.MidiFile(type=kind, ticks_per_beat=96)
            meta, notes = mido.MidiTrack(), mido.MidiTrack()
            meta += [mido.MetaMessage("track_name", name="differential"), mido.MetaMessage("set_tempo", tempo=500000),
                     mido.MetaMessage("time_signature", numerator=3, denominator=4),
                     mido.MetaMessage("key_signature", key="Bb")]
            notes.append(mido.Message("program_change", program=12))
            for n in (60, 64, 67):
                notes += [mido.Message("note_on", note=n, velocity=64), mido.Message("note_off", note=n, time=48)]
            notes += [mido.Message("control_change", control=7, value=100), mido.Message("pitchwheel", pitch=1000),
                      mido.Message("sysex", data=[1, 2, 3]), mido.Message("aftertouch", value=3)]
            if kind == 0:
                mf.tracks.append(mido.MidiTrack(meta + notes))
            else:
                mf.tracks += [meta, notes]
            mf.save("mido-type%d.mid" % kind)
        """, ["mido-type0.mid", "mido-type1.mid"])


def make_vox(work):
    """py-vox-io: MagicaVoxel models from dense arrays (its default palette)."""
    return venv_script(work, """\
        import numpy as np
        from pyvox.models import Vox
        from pyvox.writer import VoxWriter
        a = np.zeros((4, 5, 6), dtype=int)
        a[1, 2, 3], a[0, 0, 0], a[3, 4, 5] = 5, 1, 200
        VoxWriter("sparse.vox", Vox.from_dense(a)).write()
        b = (np.indices((8, 8, 8)).sum(axis=0) % 7).astype(int)
        VoxWriter("cube.vox", Vox.from_dense(b)).write()
        """, ["sparse.vox", "cube.vox"])


def make_quake_pak(work):
    """vgio's PakFile (Quake's PAK archives): text and binary entries, an empty one."""
    return venv_script(work, """\
        from vgio.quake import pak
        with pak.PakFile("small.pak", "w") as p:
            p.writestr("maps/readme.txt", "differential\\n" * 10)
            p.writestr("progs/data.bin", bytes(range(256)) * 4)
            p.writestr("gfx/empty.lmp", b"")
        with pak.PakFile("one.pak", "w") as p:
            p.writestr("default.cfg", "bind w +forward\\n")
        """, ["small.pak", "one.pak"])


def trimesh_files(work):
    return venv_script(work, """\
        import numpy as np, trimesh
        box = trimesh.creation.box(extents=(1, 2, 3))
        ball = trimesh.creation.icosphere(subdivisions=2, radius=0.5)
        ball.apply_translation((2, 0, 0))
        ball.visual.vertex_colors = np.tile(np.array([255, 0, 0, 255], dtype=np.uint8), (len(ball.vertices), 1))
        box.export("box.glb")
        trimesh.Scene({"box": box, "ball": ball}).export("scene.glb")
        box.export("box.stl")
        ball.export("ball.stl")
        """, ["box.glb", "scene.glb", "box.stl", "ball.stl"])


def make_gltf_binary(work):
    """trimesh: binary glTF of a box and of a scene of two meshes (one with vertex colours)."""
    return [p for p in trimesh_files(work) if p.endswith(".glb")]


def make_stl(work):
    """trimesh: binary STL of a box and of an icosphere."""
    return [p for p in trimesh_files(work) if p.endswith(".stl")]


def freedoom(work, script, names):
    wad = "/usr/share/games/doom/freedoom2.wad"
    if not os.path.exists(wad):
        raise Skip("freedoom is not installed")
    return venv_script(work, "from omg import WAD\nfreedoom = WAD(%r)\n" % wad + textwrap.dedent(script), names)


def make_doom_wad(work):
    """omgifol: PWADs made of Freedoom's lumps (a map with its palette, GENMIDI, PNAMES and
    TEXTURE1; another map alone). Freedoom's IWADs themselves are over the size limit."""
    return freedoom(work, """\
        pwad = WAD()
        pwad.maps["MAP01"] = freedoom.maps["MAP01"]
        for name in ("PLAYPAL", "GENMIDI", "PNAMES", "TEXTURE1"):
            if name in freedoom.data:
                pwad.data[name] = freedoom.data[name]
        pwad.to_file("map01.wad")
        other = WAD()
        other.maps["MAP07"] = freedoom.maps["MAP07"]
        other.to_file("map07.wad")
        """, ["map01.wad", "map07.wad"])


def make_genmidi(work):
    """Freedoom's GENMIDI lump (its OPL2 instrument bank), taken out of the IWAD by omgifol."""
    return freedoom(work, """\
        open("GENMIDI.op2", "wb").write(freedoom.data["GENMIDI"].data)
        """, ["GENMIDI.op2"])


def make_websocket(work):
    """websockets' protocol (sans I/O, in the open state): a text message sent by a server in two
    fragments, a masked binary message from a client (16-bit length), a large one (64-bit)."""
    return venv_script(work, """\
        from websockets.protocol import Protocol, Side, State
        def frames(side, send):
            p = Protocol(side, state=State.OPEN)
            send(p)
            return b"".join(p.data_to_send())
        def fragments(p):
            p.send_text(b"hello, ", fin=False)
            p.send_continuation(b"differential ", fin=False)
            p.send_continuation(b"world", fin=True)
        open("fragmented-text.ws", "wb").write(frames(Side.SERVER, fragments))
        open("masked-binary.ws", "wb").write(frames(Side.CLIENT, lambda p: p.send_binary(bytes(range(256)) + b"x" * 44)))
        open("large.ws", "wb").write(frames(Side.SERVER, lambda p: p.send_binary(b"\\x00" * 70000)))
        """, ["fragmented-text.ws", "masked-binary.ws", "large.ws"])


def make_dns(work):
    """dnspython: a query (with EDNS), a response with a CNAME and two addresses (compressed
    names), an MX and TXT response."""
    return venv_script(work, """\
        import dns.message, dns.rrset, dns.flags
        q = dns.message.make_query("www.example.org", "A", use_edns=0)
        open("query.dns", "wb").write(q.to_wire())
        r = dns.message.make_response(q)
        r.answer.append(dns.rrset.from_text("www.example.org.", 300, "IN", "CNAME", "example.org."))
        r.answer.append(dns.rrset.from_text("example.org.", 300, "IN", "A", "192.0.2.1", "192.0.2.2"))
        open("response.dns", "wb").write(r.to_wire())
        q2 = dns.message.make_query("example.org", "MX", use_edns=False)
        r2 = dns.message.make_response(q2)
        r2.answer.append(dns.rrset.from_text("example.org.", 60, "IN", "MX", "10 mail.example.org."))
        r2.authority.append(dns.rrset.from_text("example.org.", 60, "IN", "NS", "ns1.example.org."))
        r2.additional.append(dns.rrset.from_text("mail.example.org.", 60, "IN", "A", "192.0.2.25"))
        open("mx-response.dns", "wb").write(r2.to_wire())
        """, ["query.dns", "response.dns", "mx-response.dns"])


def make_some_ip(work):
    """scapy's SOME/IP: a request with a payload, a response, and a service discovery message
    (an offer with an IPv4 end point, a subscription)."""
    return some_ip_files(work)[:3]


def make_some_ip_sd(work):
    """scapy's SOME/IP service discovery payloads (what follows the SOME/IP header)."""
    return some_ip_files(work)[3:]


def some_ip_files(work):
    return venv_script(work, """\
        from scapy.all import raw
        from scapy.contrib.automotive.someip import (SOMEIP, SD, SDEntry_Service, SDEntry_EventGroup,
                                                     SDOption_IP4_EndPoint, SDOption_Config)
        request = SOMEIP(srv_id=0x1234, sub_id=0x0421, client_id=0x10, session_id=1,
                         msg_type=SOMEIP.TYPE_REQUEST) / b"differential payload"
        response = SOMEIP(srv_id=0x1234, sub_id=0x0421, client_id=0x10, session_id=1,
                          msg_type=SOMEIP.TYPE_RESPONSE, retcode=SOMEIP.RET_E_OK) / b"\\x00\\x01\\x02\\x03"
        offer = SD(flags=0xc0, entry_array=[SDEntry_Service(type=1, srv_id=0x1234, inst_id=1, major_ver=1,
                                                            ttl=3, minor_ver=2, index_1=0, n_opt_1=1)],
                   option_array=[SDOption_IP4_EndPoint(addr="192.0.2.7", l4_proto=0x11, port=30509)])
        subscribe = SD(flags=0x80, entry_array=[SDEntry_EventGroup(type=6, srv_id=0x1234, inst_id=1,
                                                                   major_ver=1, ttl=3, eventgroup_id=5,
                                                                   index_1=0, n_opt_1=1)],
                       option_array=[SDOption_IP4_EndPoint(addr="192.0.2.8", l4_proto=0x06, port=40000)])
        files = {"request.someip": request, "response.someip": response,
                 "offer.someip": SOMEIP() / offer, "offer.sd": offer, "subscribe.sd": subscribe}
        for name, packet in files.items():
            open(name, "wb").write(raw(packet))
        """, ["request.someip", "response.someip", "offer.someip", "offer.sd", "subscribe.sd"])


PACKETS = """\
    import sys
    from scapy.all import (rdpcap, raw, Ether, Dot1Q, IP, IPv6, IPv6ExtHdrHopByHop, TCP, UDP, ICMP,
                           ICMPv6EchoRequest, IPOption_Router_Alert, DNS, DNSQR, Raw)
    pcap, fmt = sys.argv[2], sys.argv[3]
    layer = {"ethernet_frame": Ether, "ipv4_packet": IP, "ipv6_packet": IPv6, "tcp_segment": TCP,
             "udp_datagram": UDP, "icmp_packet": ICMP}[fmt]
    def kind(p):
        return (IPv6 in p, p[IP].proto if IP in p else p[IPv6].nh, str(p[TCP].flags) if TCP in p else None,
                p[ICMP].type if ICMP in p else None)
    chosen = {}
    for p in rdpcap(pcap):
        if layer in p and kind(p) not in chosen:
            chosen[kind(p)] = raw(p[layer])
    tcp_options = [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (1, 0)), ("NOP", None), ("WScale", 7)]
    v4 = dict(src="192.0.2.1", dst="192.0.2.2")
    v6 = dict(src="2001:db8::1", dst="2001:db8::2")
    built = {
        "ethernet_frame": [Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / Dot1Q(vlan=42)
                           / IP(**v4) / UDP(sport=1000, dport=2000) / Raw(b"vlan tagged"),
                           Ether(src="02:00:00:00:00:01", dst="33:33:00:00:00:01") / IPv6(**v6)
                           / ICMPv6EchoRequest(data=b"ping")],
        "ipv4_packet": [IP(options=[IPOption_Router_Alert()], **v4) / ICMP(id=1, seq=2) / b"ping",
                        IP(flags="MF", ttl=3, **v4) / TCP(sport=1, dport=2, flags="S", options=tcp_options)],
        "ipv6_packet": [IPv6(**v6) / TCP(sport=1234, dport=80, flags="S", options=tcp_options),
                        IPv6(**v6) / IPv6ExtHdrHopByHop() / UDP(sport=5353, dport=5353) / DNS(qd=DNSQR(qname="example.org"))],
        "tcp_segment": [IP(**v4) / TCP(sport=1234, dport=80, flags="S", options=tcp_options),
                        IP(**v4) / TCP(sport=80, dport=1234, flags="PA", seq=7, ack=9, urgptr=0) / b"data"],
        "udp_datagram": [IP(**v4) / UDP(sport=5353, dport=53) / DNS(qd=DNSQR(qname="example.org")),
                         IPv6(**v6) / UDP(sport=1, dport=2) / b"a datagram over IPv6"],
        "icmp_packet": [IP(**v4) / ICMP(type=8, id=1, seq=1) / b"echo request from the differential test",
                        IP(**v4) / ICMP(type=11, code=0) / IP(ttl=1, **v4) / UDP(sport=1, dport=33434),
                        IP(**v4) / ICMP(type=3, code=1) / IP(**v4) / TCP(sport=1, dport=2)],
    }[fmt]
    files = [("captured-%d.bin" % i, data) for i, data in enumerate(list(chosen.values())[:3])]
    files += [("built-%d.bin" % i, raw(layer(raw(p)) if layer in (Ether, IP, IPv6) else (IP if IP in p else IPv6)(raw(p))[layer]))
              for i, p in enumerate(built)]
    for name, data in files:
        open(name, "wb").write(data)
    print("\\n".join(name for name, _ in files))
    """


def loopback_traffic(work):
    """Frames the kernel sends on the loopback interface, captured whole by tcpdump: UDP to a
    closed port over IPv4 and IPv6 (with the ICMP port-unreachable replies), a TCP connection
    over each."""
    if shutil.which("tcpdump") is None:
        raise Skip("tcpdump is not installed")
    import socket

    def traffic():
        for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
            try:
                sock = socket.socket(family, socket.SOCK_DGRAM)
                sock.sendto(b"differential datagram", (host, 9))
                sock.close()
                server = socket.socket(family)
                server.bind((host, 0))
                server.listen(1)
                client = socket.create_connection(server.getsockname()[:2])
                conn, _ = server.accept()
                client.sendall(b"hello over tcp")
                conn.recv(100)
                client.close()
                conn.close()
                server.close()
            except OSError:
                pass

    return capture(os.path.join(work, "loopback.pcap"), "udp or tcp or icmp or icmp6", traffic, snaplen=0)


def packets(work, fmt):
    """Up to three of the loopback frames (their layer of the format; one per kind of packet)
    and packets scapy builds (VLAN tags, an IP option, a hop-by-hop header, TCP options, ICMP errors
    quoting a packet)."""
    pcap = loopback_traffic(work)
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        raise Skip("the venv of kaitai/setup.sh is not installed")
    names = run(python, "-", work, pcap, fmt, stdin=("import os, sys\nos.chdir(sys.argv[1])\n" + textwrap.dedent(PACKETS)).encode())
    return [os.path.join(work, n) for n in names.decode().split()]


# The recipes `make:ethernet_frame`, `make:ipv4_packet`, …: one per layer `packets` gives.
for _layer in ("ethernet_frame", "ipv4_packet", "ipv6_packet", "tcp_segment", "udp_datagram",
               "icmp_packet"):
    globals()[f"make_{_layer}"] = functools.partial(packets, fmt=_layer)


def rtp_session(work, name, *args):
    """ffmpeg streaming to RTP on the loopback interface: the RTP packets and the RTCP sender
    reports it sends, received by two UDP sockets."""
    import socket
    rtp, rtcp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM), socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _ in range(20):
            rtp.bind(("127.0.0.1", 0))
            port = rtp.getsockname()[1]
            try:
                rtcp.bind(("127.0.0.1", port + 1))
                break
            except OSError:
                rtp.close()
                rtp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        ffmpeg(*args, "-f", "rtp", "-ssrc", "4660", f"rtp://127.0.0.1:{port}?rtcpport={port + 1}&pkt_size=600")
        received = {}
        for kind, sock in (("rtp", rtp), ("rtcp", rtcp)):
            sock.settimeout(0.5)
            received[kind] = []
            try:
                while True:
                    received[kind].append(sock.recv(65536))
            except socket.timeout:
                pass
    finally:
        rtp.close()
        rtcp.close()
    out = {}
    for kind, datagrams in received.items():
        out[kind] = []
        for i, data in enumerate(datagrams[:2]):
            path = os.path.join(work, f"{name}-{i}.{kind}")
            with open(path, "wb") as f:
                f.write(data)
            out[kind].append(path)
    return out


def rtp_sessions(work):
    audio = rtp_session(work, "pcmu", *AUDIO, "-c:a", "pcm_mulaw", "-payload_type", "0")
    video = rtp_session(work, "vp8", *VIDEO, "-frames:v", "2", "-c:v", "libvpx")
    return audio, video


def make_rtp(work):
    """ffmpeg's RTP packets: mu-law audio (payload type 0), VP8 video (a dynamic payload type,
    marker bits)."""
    audio, video = rtp_sessions(work)
    return audio["rtp"] + video["rtp"]


def make_rtcp(work):
    """ffmpeg's RTCP sender reports, sent with its RTP streams."""
    audio, video = rtp_sessions(work)
    return audio["rtcp"] + video["rtcp"]


def make_tls_client_hello(work):
    """ClientHello messages that real TLS clients send to a local socket: Python's ssl (TLS 1.3,
    with its many extensions), openssl s_client limited to TLS 1.2 with a server name, and
    without extensions' session tickets; the schema reads the handshake message's body, which is
    taken out of the TLS record (after the 5-byte record header and the 4-byte handshake header)."""
    import socket
    import ssl
    import threading

    def first_record(client):
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(30)
        thread = threading.Thread(target=client, args=(server.getsockname()[1],), daemon=True)
        thread.start()
        conn, _ = server.accept()
        conn.settimeout(10)
        data = b""
        while len(data) < 5 or len(data) < 5 + int.from_bytes(data[3:5], "big"):
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
        conn.close()
        server.close()
        thread.join(10)
        if data[:1] != b"\x16" or data[5:6] != b"\x01":
            raise RuntimeError(f"not a ClientHello record: {data[:8].hex()}")
        return data[9:9 + int.from_bytes(data[6:9], "big")]

    def python_ssl(port):
        try:
            with socket.create_connection(("127.0.0.1", port)) as s:
                ssl.create_default_context().wrap_socket(s, server_hostname="differential.example")
        except (OSError, ssl.SSLError):
            pass

    def openssl(*args):
        def client(port):
            subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", *args],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
        return client

    out = []
    clients = [("python.hello", python_ssl)]
    if shutil.which("openssl"):
        clients += [("openssl-tls12.hello", openssl("-tls1_2", "-servername", "example.org")),
                    ("openssl-no-ticket.hello", openssl("-no_ticket", "-noservername", "-cipher", "AES128-SHA",
                                                        "-tls1_2"))]
    for name, client in clients:
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(first_record(client))
        out.append(path)
    return out


# --- more images, sound, executables, file systems and archives -------------------------------

def make_dcx(work):
    """ImageMagick's DCX (PCX pages): truecolour and palette pages."""
    pic = a_picture(work)
    two, palette = os.path.join(work, "two.dcx"), os.path.join(work, "palette.dcx")
    run(CONVERT, pic, "rose:", two)
    run(CONVERT, pic, "rose:", "-size", "20x10", "xc:yellow", "-colors", "16", "-type", "Palette", palette)
    return [two, palette]


def make_nitf(work):
    """gdal_translate -of NITF: JPEG compressed (IC=C3; with titles; one band), JPEG 2000 (C8),
    uncompressed; georeferenced (the schema reads the image's corner coordinates, which a NITF
    file without coordinates leaves out, and its compression rate, which an uncompressed image
    leaves out)."""
    pic = a_picture(work)
    out = []
    for name, args in [("jpeg.ntf", ["-co", "IC=C3"]),
                       ("titled.ntf", ["-co", "IC=C3", "-co", "FTITLE=differential", "-co", "ITITLE=a picture",
                                       "-co", "IID1=SKELCODEC"]),
                       ("gray.ntf", ["-co", "IC=C3", "-b", "1"]),
                       ("jpeg2000.ntf", ["-co", "IC=C8"]),
                       ("uncompressed.ntf", [])]:
        path = os.path.join(work, name)
        run("gdal_translate", "-q", "-of", "NITF", "-a_srs", "EPSG:4326", "-a_ullr", "2.3", "48.9", "2.4", "48.8",
            *args, pic, path)
        out.append(path)
    return out


def ogr_shapefiles(work):
    """ogr2ogr (GDAL) of GeoJSON features: points with attributes of every DBF type, polygons
    (a hole, a multipolygon), lines, a 3D line; a CSV table to a lone .dbf."""
    layers = {
        "points": [({"name": "Paris", "pop": 2148000, "area": 105.4, "founded": "2024-01-02", "capital": True},
                    {"type": "Point", "coordinates": [2.35, 48.85]}),
                   ({"name": "Lyon", "pop": 513000, "area": 47.87, "founded": "2023-12-31", "capital": False},
                    {"type": "Point", "coordinates": [4.83, 45.76]})],
        "polygons": [({"id": 1, "label": "square with a hole"},
                      {"type": "Polygon", "coordinates": [[[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]],
                                                          [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]]]}),
                     ({"id": 2, "label": "two triangles"},
                      {"type": "MultiPolygon", "coordinates": [[[[20, 0], [25, 10], [30, 0], [20, 0]]],
                                                               [[[40, 0], [41, 1], [42, 0], [40, 0]]]]})],
        "lines": [({"road": "A6"}, {"type": "LineString", "coordinates": [[0, 0], [1, 1], [2, 0]]}),
                  ({"road": "A7"}, {"type": "MultiLineString", "coordinates": [[[0, 5], [1, 6]], [[2, 5], [3, 7]]]})],
        "lines3d": [({"road": "A6"}, {"type": "LineString", "coordinates": [[0, 0, 1], [1, 1, 2], [2, 0, 3]]})],
    }
    out = []
    for name, features in layers.items():
        src = os.path.join(work, f"{name}.geojson")
        with open(src, "w") as f:
            json.dump({"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": p, "geometry": g} for p, g in features]}, f)
        shp = os.path.join(work, f"{name}.shp")
        for ext in ("shp", "shx", "dbf", "prj", "cpg"):
            if os.path.exists(shp[:-3] + ext):
                os.remove(shp[:-3] + ext)
        run("ogr2ogr", "-f", "ESRI Shapefile", shp, src)
        out += [shp, shp[:-3] + "shx", shp[:-3] + "dbf"]
    csv, table = os.path.join(work, "table.csv"), os.path.join(work, "table.dbf")
    with open(csv, "w") as f:
        f.write("id,name,value,when\n1,alpha,1.5,2024-01-02\n2,beta,-3.25,2023-12-31\n")
    if os.path.exists(table):
        os.remove(table)
    run("ogr2ogr", "-f", "ESRI Shapefile", table, csv, "-oo", "AUTODETECT_TYPE=YES")
    return out + [table]


def make_shapefile_main(work):
    return [p for p in ogr_shapefiles(work) if p.endswith(".shp")]


def make_shapefile_index(work):
    return [p for p in ogr_shapefiles(work) if p.endswith(".shx")]


def make_dbf(work):
    return [p for p in ogr_shapefiles(work) if p.endswith(".dbf")]


def make_swf(work):
    """ffmpeg's SWF muxer (uncompressed FWS): Sorenson video with MP3 audio, MJPEG frames."""
    flv, jpeg = os.path.join(work, "flv-mp3.swf"), os.path.join(work, "mjpeg.swf")
    ffmpeg(*VIDEO, *AUDIO, "-c:v", "flv1", "-c:a", "libmp3lame", "-ar", "11025", "-shortest", flv)
    ffmpeg(*VIDEO, "-c:v", "mjpeg", "-frames:v", "2", jpeg)
    return [flv, jpeg]


MACHO_C = """\
int counter = 3;
static const char text[] = "differential";
const double ratio = 1.5;
int next(int x) { return x + counter + text[0]; }
int main(void) { return next((int)ratio); }
"""


def mach_o_files(work):
    """clang for macOS targets, linked by lld's ld64.lld (no SDK: no system library)."""
    src = os.path.join(work, "macho.c")
    with open(src, "w") as f:
        f.write(MACHO_C)
    made = {}
    for name, args in [("x86_64.o", ["-target", "x86_64-apple-macos11", "-c", "-g"]),
                       ("arm64.o", ["-target", "arm64-apple-macos11", "-c", "-O1"]),
                       ("arm64-exe", ["-target", "arm64-apple-macos11", "-fuse-ld=lld", "-nostdlib",
                                      "-Wl,-e,_main"]),
                       ("x86_64-exe", ["-target", "x86_64-apple-macos11", "-fuse-ld=lld", "-nostdlib",
                                       "-Wl,-e,_main"]),
                       ("x86_64.dylib", ["-target", "x86_64-apple-macos11", "-fuse-ld=lld", "-nostdlib",
                                         "-dynamiclib"])]:
        path = os.path.join(work, name)
        run("clang", *args, src, "-o", path)
        made[name] = path
    return made


def lipo():
    for tool in ("llvm-lipo", "llvm-lipo-14", "llvm-lipo-15", "llvm-lipo-16"):
        if shutil.which(tool):
            return tool
    raise Skip("llvm-lipo is not installed")


def make_mach_o(work):
    made = mach_o_files(work)
    return [made[n] for n in ("x86_64.o", "arm64.o", "arm64-exe", "x86_64.dylib")]


def make_mach_o_fat(work):
    """llvm-lipo -create of clang's x86_64 and arm64 objects, and of two executables."""
    made = mach_o_files(work)
    objects, programs = os.path.join(work, "objects.fat"), os.path.join(work, "programs.fat")
    run(lipo(), "-create", made["x86_64.o"], made["arm64.o"], "-output", objects)
    run(lipo(), "-create", made["x86_64-exe"], made["arm64-exe"], "-output", programs)
    return [objects, programs]


def make_res(work):
    """llvm-rc (LLVM's resource compiler): icons (made by ImageMagick), a bitmap, a string table,
    raw data, version information."""
    tool = next((t for t in ("llvm-rc", "llvm-rc-14", "llvm-rc-15", "llvm-rc-16") if shutil.which(t)), None)
    if tool is None:
        raise Skip("llvm-rc is not installed")
    pic = a_picture(work)
    run(CONVERT, pic, "-define", "icon:auto-resize=32,16", os.path.join(work, "app.ico"))
    run(CONVERT, pic, "BMP3:" + os.path.join(work, "pic.bmp"))
    out = []
    for name, rc in [("full.res", textwrap.dedent("""\
                         1 ICON "app.ico"
                         2 BITMAP "pic.bmp"
                         STRINGTABLE
                         BEGIN
                           1, "differential"
                           2, "skelcodec"
                           17, "another block"
                         END
                         3 RCDATA { "raw data", 0x1234, 5L }
                         1 VERSIONINFO
                         FILEVERSION 1,2,3,4
                         PRODUCTVERSION 1,2,3,4
                         BEGIN
                           BLOCK "StringFileInfo"
                           BEGIN
                             BLOCK "040904b0"
                             BEGIN
                               VALUE "FileDescription", "differential test"
                               VALUE "ProductName", "skelcodec"
                             END
                           END
                           BLOCK "VarFileInfo"
                           BEGIN
                             VALUE "Translation", 0x409, 1200
                           END
                         END
                         """)),
                     ("strings.res", 'LANGUAGE 0x0c, 0x01\nSTRINGTABLE\nBEGIN\n  100, "bonjour"\nEND\n'
                                     'DATA RCDATA { "named resource" }\n')]:
        src, path = os.path.join(work, name[:-4] + ".rc"), os.path.join(work, name)
        with open(src, "w") as f:
            f.write(rc)
        run(tool, "/FO", path, src, cwd=work)
        out.append(path)
    return out


def make_cfb(work):
    """Compound files: libgsf's `gsf createole` of two streams (a small one in the mini stream, a
    large one), and an MSI database by msitools' msibuild (summary information, a table, a
    stream)."""
    tree = a_source_tree(work)
    ole = os.path.join(work, "streams.ole")
    run("gsf", "createole", ole, os.path.join(tree, "hello.txt"), os.path.join(tree, "sub", "binary.bin"))
    msi = os.path.join(work, "database.msi")
    if os.path.exists(msi):
        os.remove(msi)
    run("msibuild", msi, "-s", "Differential", "skelcodec", "x64;1033", "{11111111-2222-3333-4444-555555555555}")
    run("msibuild", msi, "-q", "CREATE TABLE `Property` (`Property` CHAR(72) NOT NULL, "
        "`Value` LONGCHAR NOT NULL LOCALIZABLE PRIMARY KEY `Property`)")
    run("msibuild", msi, "-q", "INSERT INTO `Property` (`Property`, `Value`) VALUES ('ProductName', 'differential')")
    run("msibuild", msi, "-a", "Payload", os.path.join(tree, "sub", "binary.bin"))
    return [ole, msi]


def make_lzh(work):
    """jlha (LHa for Java): header levels 0, 1 and 2 (-lh5- compression) and stored files (-lh0-)."""
    tree = a_source_tree(work)
    files = ["hello.txt", os.path.join("sub", "binary.bin"), os.path.join("sub", "deeper", "a file with a rather long name.txt")]
    out = []
    for name, options in [("level0.lzh", "a0"), ("level1.lzh", "a1"), ("level2.lzh", "a2"), ("stored.lzh", "az")]:
        path = os.path.join(work, name)
        if os.path.exists(path):
            os.remove(path)
        run("jlha", options, path, *files, cwd=tree)
        out.append(path)
    return out


def make_zisofs(work):
    """Files compressed as mkzftree does: xorriso's zisofs filter on the files of an ISO image it
    writes, extracted with the filters removed (so each keeps its zisofs header, block pointers
    and zlib blocks); block sizes 32 KiB (the default), 64 and 128 KiB."""
    src = os.path.join(work, "zisofs-source")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    with open(os.path.join(src, "text.txt"), "w") as f:
        f.write("".join(f"hello zisofs {i}\n" for i in range(4000)))
    with open(os.path.join(src, "zeros-and-text.bin"), "wb") as f:
        f.write(bytes(40000) + b"differential " * 3000 + bytes(20000))
    out = []
    for block in ("32k", "64k", "128k"):
        iso, extracted = os.path.join(work, f"zisofs-{block}.iso"), os.path.join(work, f"extracted-{block}")
        shutil.rmtree(extracted, ignore_errors=True)
        if os.path.exists(iso):
            os.remove(iso)
        run("xorriso", "-no_rc", "-abort_on", "FAILURE", "-outdev", iso, "-zisofs", f"block_size={block}",
            "-map", src, "/src", "-set_filter_r", "--zisofs", "/src", "--", "-commit")
        run("xorriso", "-no_rc", "-abort_on", "FAILURE", "-indev", iso, "-osirrox", "on",
            "-set_filter_r", "--remove-all-filters", "/src", "--", "-extract", "/src", extracted)
        for name in sorted(os.listdir(extracted)):
            path = os.path.join(extracted, name)
            with open(path, "rb") as f:
                if f.read(8) == bytes.fromhex("37e45396c9dbd607"):
                    out.append(path)
    return out


def make_btrfs_stream(work):
    """btrfs send of read-only snapshots on a btrfs file system (mkfs.btrfs on a sparse file,
    mounted through a loop device, as root): a full stream, an incremental one (-p: an append, a
    rename, a removed link, a changed mode) and a protocol 2 stream."""
    if os.geteuid() != 0:
        raise Skip("mounting a btrfs image needs root")
    image, mnt = os.path.join(work, "btrfs.img"), os.path.join(work, "mnt")
    if os.path.exists(image):
        os.remove(image)
    with open(image, "wb") as f:
        f.truncate(120 * 1024 * 1024)
    run("mkfs.btrfs", "-q", "-f", image)
    os.makedirs(mnt, exist_ok=True)
    run("mount", "-o", "loop", image, mnt)
    out = [os.path.join(work, n) for n in ("full.stream", "incremental.stream", "proto2.stream")]
    try:
        vol, snap1, snap2 = (os.path.join(mnt, n) for n in ("vol", "snap1", "snap2"))
        run("btrfs", "subvolume", "create", vol)
        shutil.copytree(a_source_tree(work), vol, symlinks=True, dirs_exist_ok=True)
        os.setxattr(os.path.join(vol, "hello.txt"), "user.note", b"differential")
        run("btrfs", "subvolume", "snapshot", "-r", vol, snap1)
        with open(os.path.join(vol, "hello.txt"), "a") as f:
            f.write("appended\n")
        os.rename(os.path.join(vol, "sub", "binary.bin"), os.path.join(vol, "moved.bin"))
        os.remove(os.path.join(vol, "link"))
        os.chmod(os.path.join(vol, "empty"), 0o600)
        run("btrfs", "subvolume", "snapshot", "-r", vol, snap2)
        for path in out:
            if os.path.exists(path):
                os.remove(path)
        run("btrfs", "send", "-q", "-f", out[0], snap1)
        run("btrfs", "send", "-q", "-p", snap1, "-f", out[1], snap2)
        try:
            run("btrfs", "send", "-q", "--proto", "2", "-f", out[2], snap1)
        except RuntimeError:
            out.pop()
    finally:
        subprocess.run(["umount", mnt], capture_output=True)
        os.remove(image)
    return out


def make_apm(work):
    """parted's Apple partition maps (mklabel mac): named partitions of several types."""
    out = []
    for name, parts in [("apm.img", ["mkpart", "primary", "hfs", "64s", "2047s", "name", "2", "differential",
                                     "mkpart", "data", "ext2", "2048s", "4000s"]),
                        ("apm-one.img", ["mkpart", "only", "fat32", "100s", "4000s"])]:
        path = an_empty_disk(work, name)
        run("parted", "-s", path, "mklabel", "mac", *parts)
        out.append(path)
    return out


def make_ines(work):
    """cc65's NES target (cl65 -t nes): iNES ROMs of two small C programs."""
    out = []
    for name, source in [("hello", '#include <conio.h>\nint main(void) { clrscr(); cprintf("differential");'
                                   " for (;;) {} return 0; }\n"),
                         ("sum", "unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
                                 "int main(void) { unsigned char i; unsigned s = 0;"
                                 " for (i = 0; i < 8; ++i) s += data[i] * i; return s; }\n")]:
        src, path = os.path.join(work, name + ".c"), os.path.join(work, name + ".nes")
        with open(src, "w") as f:
            f.write(source)
        run("cl65", "-t", "nes", "-O", src, "-o", path)
        out.append(path)
    return out


CODE_6502 = """\
        .org $0600
start:  ldx #$00
loop:   lda message,x
        beq done
        sta $0200,x
        inx
        bne loop
done:   lda #$01
        sta $10
        jsr sub
        jmp ($fffc)
sub:    clc
        adc #$10
        rol a
        ror $20
        asl $1234,x
        lsr $34,x
        cmp ($40),y
        sbc ($50,x)
        bit $2000
        ldy $3000,x
        rts
message: .byte "HI", 0
"""


def make_code_6502(work):
    """Raw 6502 machine code: ca65 (cc65's assembler, through cl65 -t none) of a routine using
    most addressing modes, and of cc65's compilation of a C function."""
    asm, code = os.path.join(work, "routine.s"), os.path.join(work, "routine.bin")
    with open(asm, "w") as f:
        f.write(CODE_6502)
    run("cl65", "-t", "none", asm, "-o", code)
    src, compiled = os.path.join(work, "sum.c"), os.path.join(work, "sum.bin")
    with open(src, "w") as f:
        f.write("int sum(int n) { int s = 0; while (n > 0) s += n--; return s; }\n"
                "int main(void) { return sum(10); }\n")
    run("cl65", "-t", "none", "-O", src, "-o", compiled)
    return [code, compiled]


def make_zx_spectrum_tap(work):
    """ZX Spectrum tapes: pasmo (Z80 assembler) --tap and --tapbas (with a BASIC loader),
    zmakebas (a BASIC program with an auto-start line)."""
    asm = os.path.join(work, "prog.asm")
    with open(asm, "w") as f:
        f.write("        org 32768\nstart:  ld hl, message\nloop:   ld a, (hl)\n        or a\n        ret z\n"
                "        rst 16\n        inc hl\n        jr loop\nmessage: defb \"differential\", 13, 0\n"
                "        end start\n")
    code, loader = os.path.join(work, "code.tap"), os.path.join(work, "loader.tap")
    run("pasmo", "--tap", asm, code)
    run("pasmo", "--tapbas", asm, loader)
    bas, basic = os.path.join(work, "prog.bas"), os.path.join(work, "basic.tap")
    with open(bas, "w") as f:
        f.write('10 REM differential\n20 FOR i=1 TO 10\n30 PRINT "skelcodec ";i\n40 NEXT i\n'
                '50 LET a$="kaitai"\n60 DIM b(3)\n')
    run("zmakebas", "-a", "10", "-n", "DIFF", "-o", basic, bas)
    return [code, loader, basic]


def gather(fmt, recipe, out_dir, per_format, work_root):
    found, made, problems = [], [], []
    work = os.path.join(work_root, fmt)
    os.makedirs(work, exist_ok=True)
    for word in recipe.split():
        kind, _, arg = word.partition(":")
        if kind == "find":
            found += find(arg)
        elif kind == "make":
            maker = globals().get(f"make_{arg}")
            try:
                if maker is None:
                    raise Skip(f"no recipe make:{arg}")
                made += maker(work)
            except Skip as e:
                problems.append(f"make:{arg} skipped: {e}")
            except Exception as e:
                problems.append(f"make:{arg} failed: {type(e).__name__}: {e}")
    made = [p for p in made if os.path.isfile(p) and MIN_SIZE <= os.path.getsize(p) <= MAX_SIZE]
    chosen = made[:per_format]
    found = [p for p in found if p not in chosen]
    chosen += spread(found, per_format - len(chosen))
    target = os.path.join(out_dir, fmt)
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    files = []
    for i, path in enumerate(chosen):
        name = f"{i}-{os.path.basename(path)}"
        shutil.copyfile(path, os.path.join(target, name))
        files.append({"file": os.path.join(target, name), "source": path,
                      "origin": "made" if path in made else "found"})
    return files, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="/tmp/differential/files")
    parser.add_argument("--per-format", type=int, default=5)
    parser.add_argument("--only", default="")
    parser.add_argument("--formats", default=os.path.join(HERE, "formats.tsv"))
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    work_root = os.path.join(os.path.dirname(args.out.rstrip("/")), "work")
    os.makedirs(args.out, exist_ok=True)
    index_path = os.path.join(args.out, "files.json")
    index = {}
    if only and os.path.exists(index_path):
        with open(index_path) as f:
            index = json.load(f)
    with open(args.formats) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    for row in rows:
        schema, recipe = row[0], row[1] if len(row) > 1 else ""
        fmt = os.path.basename(schema)[: -len(".ksy")]
        if only and fmt not in only:
            continue
        files, problems = gather(fmt, recipe, args.out, args.per_format, work_root)
        index[fmt] = {"schema": schema, "files": files, "problems": problems}
        note = "; ".join(problems)
        print(f"files: {fmt:24} {len(files)}{'  (' + note + ')' if note else ''}", file=sys.stderr)
    with open(index_path, "w") as f:
        json.dump(index, f, indent=1)


if __name__ == "__main__":
    main()
