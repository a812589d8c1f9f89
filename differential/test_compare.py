"""Unit tests of compare.py's normalisations: each maps one representation difference, and
nothing else is taken as equal.  python3 -m unittest differential/test_compare.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare  # noqa: E402


def struct(type_, instances=(), **fields):
    return {"@type": type_, "@instances": list(instances), **fields}


def run(kaitai, skelcodec, facts=None):
    stats = compare.Stats()
    compare.Comparer(stats, kaitai, facts).cmp(kaitai, skelcodec, "")
    return stats


class Normalisations(unittest.TestCase):
    def test_enum_by_name_or_unknown_integer(self):
        k = struct("F", a={"@enum": "zlib", "value": 0}, b=7)
        self.assertEqual(run(k, {"a": "zlib", "b": 7}).equal, 2)
        self.assertEqual(run(k, {"a": "other", "b": 7}).differ, 1)

    def test_switch_case_and_decoded_value_are_unwrapped(self):
        k = struct("F", body=struct("F.PlteChunk", n=1), data={"@bytes": "0102"})
        s = {"body": {"plte_chunk": {"n": 1}}, "data": {"value": "0102", "stored": "789c"}}
        stats = run(k, s)
        self.assertEqual((stats.equal, stats.differ), (2, 0))

    def test_a_case_of_another_type_is_not_unwrapped(self):
        k = struct("F", body=struct("F.PlteChunk", n=1))
        stats = run(k, {"body": {"text_chunk": {"n": 1}}})
        self.assertEqual(stats.equal, 0)
        self.assertGreater(stats.only_kaitai + stats.only_skelcodec, 0)

    def test_fixed_strings_and_text_before_a_nul(self):
        k = struct("F", c="JFIF\x00", d="x")
        s = {"c": {"text": "JFIF"}, "d": {"text": "x", "rest": "ff"}}
        stats = run(k, s)
        self.assertEqual((stats.equal, stats.differ), (2, 0))
        self.assertEqual(run(struct("F", a="abc"), {"a": {"text": "abd"}}).differ, 1)
        # A plain string is no string's document: skelcodec writes every string as one.
        self.assertEqual(run(struct("F", a="abc"), {"a": "abc"}).differ, 1)

    def test_text_that_is_not_utf8_is_compared_by_its_bytes(self):
        k = struct("F", a="a\udcff")
        self.assertEqual(run(k, {"a": {"text": "a\ufffd", "stored": "61ff"}}).equal, 1)
        self.assertEqual(run(k, {"a": {"text": "a\ufffd", "stored": "61fe"}}).differ, 1)

    def test_padding_and_terminators_are_never_ignored(self):
        # skelcodec holds Kaitai's value: bytes or text past it are a difference.
        self.assertEqual(run(struct("F", a="abc"), {"a": {"text": "abc   "}}).differ, 1)
        self.assertEqual(run(struct("F", a="abc"), {"a": {"text": "abc\x00junk"}}).differ, 1)
        self.assertEqual(run(struct("F", b={"@bytes": "6162"}), {"b": "616200ff"}).differ, 1)
        self.assertEqual(run(struct("F", a="0"), {"a": {"text": "0\n", "stored": "300a"}}).differ, 1)

    def test_a_framed_value_is_compared_by_its_value(self):
        k = struct("F", b={"@bytes": "6162"}, t="gh")
        s = {"b": {"value": "6162", "stored": "616200"}, "t": {"text": "gh", "stored": "67680a"}}
        self.assertEqual(run(k, s).equal, 2)
        self.assertEqual(run(k, {"b": {"value": "616200", "stored": "616200"}}).differ, 1)

    def test_floats_as_32_bit(self):
        self.assertEqual(run(struct("F", x=0.10000000149011612), {"x": 0.1}).equal, 1)
        self.assertEqual(run(struct("F", x=0.2), {"x": 0.1}).differ, 1)
        self.assertEqual(run(struct("F", x={"@float": "nan"}), {"x": None}).equal, 1)

    def test_contents_and_bookkeeping_and_value_instances(self):
        k = struct("F", ["size", "body"], magic={"@bytes": "89"}, n=1, size=4, body=struct("F.B", x=1))
        facts = ({("f", "magic")}, {("f", "body")})
        stats = run(k, {"n": 1, "_unread": "00", "unclaimed": []}, facts)
        self.assertEqual((stats.equal, stats.only_kaitai, stats.only_skelcodec), (1, 0, 0))
        self.assertEqual((stats.only_kaitai_instances, stats.only_kaitai_parse_instances), (1, 1))

    def test_missing_seq_field_and_extra_field_are_counted(self):
        stats = run(struct("F", a=1, b=2), {"a": 1, "c": 3})
        self.assertEqual((stats.only_kaitai, stats.only_skelcodec), (1, 1))

    def test_one_field_type_and_list_lengths(self):
        k = struct("F", u=struct("F.Uuid", uuid={"@bytes": "00ff"}), l=[1, 2, 3])
        stats = run(k, {"u": "00ff", "l": [1, 2]})
        self.assertEqual((stats.equal, stats.differ), (3, 1))

    def test_cycles_errors_and_refs(self):
        k = struct("F", ["me", "bad", "alias"], a=struct("F.A", x=5), me={"@cycle": "/"},
                   bad={"@error": "EOF"}, alias={"@ref": "/a"})
        stats = run(k, {"a": {"x": 5}, "alias": {"x": 5}, "bad": {"_error": "eof"}})
        self.assertEqual((stats.equal, stats.kaitai_instance_errors), (2, 1))


if __name__ == "__main__":
    unittest.main()
