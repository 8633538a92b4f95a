"""The SCORM 1.2 package (app/scorm.py): its manifest as an LMS reads it, its page within the file's
budget, and the command's refusals (the LMS's side is tests/browser/test_scorm_browser.py)."""
import xml.etree.ElementTree as ElementTree
import zipfile

import pytest

from app.cli import main

NS = {"cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2"}


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    out = tmp_path_factory.mktemp("scorm") / "hand.zip"
    assert main(["export", str(out), "--scorm", "--lesson", "hand-calculation", "--mastery", "80", "--lang", "en"]) == 0
    return out


def test_the_manifest_is_adl_scorm_1_2_with_one_sco_the_page_and_its_mastery_score(package):
    with zipfile.ZipFile(package) as opened:
        assert sorted(opened.namelist()) == ["imsmanifest.xml", "index.html"]
        manifest = ElementTree.fromstring(opened.read("imsmanifest.xml"))
        page = opened.read("index.html")
    assert manifest.find("cp:metadata/cp:schema", NS).text == "ADL SCORM"
    assert manifest.find("cp:metadata/cp:schemaversion", NS).text == "1.2"
    organizations = manifest.find("cp:organizations", NS)
    organization = organizations.find("cp:organization", NS)
    assert organizations.get("default") == organization.get("identifier")
    item = organization.find("cp:item", NS)
    assert item.find("cp:title", NS).text == "Attention by hand"
    assert item.find("adlcp:masteryscore", NS).text == "80"
    resource, = manifest.findall("cp:resources/cp:resource", NS)
    assert resource.get("identifier") == item.get("identifierref")
    assert resource.get(f"{{{NS['adlcp']}}}scormtype") == "sco" and resource.get("href") == "index.html"
    assert [f.get("href") for f in resource.findall("cp:file", NS)] == ["index.html"]
    assert len(page) <= 300_000 and page.startswith(b"<!DOCTYPE html>")  # the one-file page, within its budget


def test_the_command_refuses_what_it_cannot_package_in_one_line(tmp_path, capsys):
    out = tmp_path / "x.zip"
    assert main(["export", str(out), "--scorm", "--lesson", "nope"]) == 2
    assert main(["export", str(out), "--scorm", "--lesson", "hand-calculation", "--practice", "-1"]) == 2
    assert main(["export", str(out), "--scorm", "--practice", "0"]) == 2  # alone, it grades at least one problem
    assert main(["export", str(out), "--scorm", "--practice", "11"]) == 2
    assert main(["export", str(out), "--scorm", "--lesson", "hand-calculation", "--mastery", "120"]) == 2
    assert main(["export", str(out), "--scorm", "--lesson", "hand-calculation", "--preset", "cat-fish"]) == 2
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 6 and all(line.startswith("attention-viz export: error:") for line in said)
    assert "no lesson 'nope'" in said[0]
    assert "N is 0 to 10 beside a lesson, not -1" in said[1]
    assert "N is 1 to 10, not 0" in said[2] and "N is 1 to 10, not 11" in said[3]
    assert "--mastery is a score in percent" in said[4] and "drop --preset" in said[5]
    assert not out.exists()


def test_practice_problems_alone_are_a_package_of_their_own_graded_problems(tmp_path, capsys):
    """Without --lesson: practice problems 1 to 5 (or --practice), the page carrying those alone and
    told to grade them; beside a lesson, none graded unless asked."""
    out = tmp_path / "p.zip"
    assert main(["export", str(out), "--scorm"]) == 0
    assert "practice problems 1 to 5" in capsys.readouterr().out
    with zipfile.ZipFile(out) as opened:
        manifest = ElementTree.fromstring(opened.read("imsmanifest.xml"))
        page = opened.read("index.html").decode()
    assert manifest.find(".//cp:organization/cp:title", NS).text == "연습 문제 5개"
    assert page.startswith("<!DOCTYPE html>")  # what it grades: tests/browser/test_scorm_browser.py
    assert main(["export", str(out), "--scorm", "--lesson", "hand-calculation", "--practice", "2"]) == 0
    assert "hand-calculation and practice problems 1 to 2" in capsys.readouterr().out


def test_the_packages_files_are_readable_by_everyone(tmp_path):
    """An LMS unpacks the zip and serves its files: each is a regular file of mode 0644, not 0600."""
    import zipfile

    out = tmp_path / "hand.zip"
    assert main(["export", str(out), "--scorm", "--lesson", "hand-calculation"]) == 0
    with zipfile.ZipFile(out) as opened:
        modes = {info.filename: (info.external_attr >> 16) & 0o777777 for info in opened.infolist()}
    assert modes == {"imsmanifest.xml": 0o100644, "index.html": 0o100644}
