"""A lesson or practice problems as a SCORM 1.2 package, graded in the course's LMS with no IT ticket
(docs/lms.md): `attention-viz export OUT.zip --scorm [--lesson NAME|FILE] [--practice N] [--mastery PERCENT]`.

The zip holds imsmanifest.xml at its root (ADL SCORM 1.2: one organization, one item, one SCO) and
index.html, the one-file page (app.export): the lesson walked alone (mode=self), or practice
problem 1 opened. The page finds the LMS's API and reports what the fair checker judged
(static/explorer/scorm.js): the lesson's predictions and practice problems 1 to N row by row
(method marks for rows carried from the student's own slip), as a percent in score raw / min / max;
the status (incomplete, then completed, or passed / failed against the mastery score); each answer
as an interaction; the progress in suspend_data; the session time.
"""
from __future__ import annotations

import html
import io
import re
import tempfile
import zipfile
from pathlib import Path

from .constants import PRACTICE_BANK
from .export import export_html
from .strings import text

#: the package's page, at the zip's root beside the manifest
PAGE = "index.html"


def manifest(identifier: str, title: str, mastery: float | None) -> str:
    """imsmanifest.xml: ADL SCORM 1.2, one SCO (PAGE); the mastery score, where there is one, for the
    LMS too (adlcp:masteryscore)."""
    mastered = f"\n        <adlcp:masteryscore>{mastery:g}</adlcp:masteryscore>" if mastery is not None else ""
    title = html.escape(title)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{identifier}" version="1.0"
          xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="ORG-1">
    <organization identifier="ORG-1">
      <title>{title}</title>
      <item identifier="ITEM-1" identifierref="SCO-1" isvisible="true">
        <title>{title}</title>{mastered}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="SCO-1" type="webcontent" adlcp:scormtype="sco" href="{PAGE}">
      <file href="{PAGE}"/>
    </resource>
  </resources>
</manifest>
"""


#: practice problems a package grades: 1 to GRADED_MAX (SCORM 1.2 keeps 4,096 characters of
#: progress; ten problems' typed rows fit beside a lesson's answers)
GRADED_MAX = 10
#: practice problems graded when the package carries no lesson and --practice is not given
GRADED_DEFAULT = 5


def graded_practice(practice: int | None, lesson: dict | None) -> int:
    """The practice problems a package grades (1 to it): `practice` as asked, else none beside a
    lesson and GRADED_DEFAULT alone; ValueError, in one line, for a count out of range."""
    if practice is None:
        return 0 if lesson is not None else GRADED_DEFAULT
    low = 0 if lesson is not None else 1
    if not low <= practice <= GRADED_MAX:
        raise ValueError(f"--practice for a SCORM package grades problems 1 to N: N is {low} to {GRADED_MAX}"
                         f"{' beside a lesson' if lesson is not None else ''}, not {practice}")
    return practice


def write_scorm(out, lesson: dict | None, practice: int | None, lang: str, mastery: float | None = None) -> int:
    """The package of `lesson` (app.lesson_check.page_lesson's, checked; None: practice problems
    alone) grading practice problems 1 to `practice` (graded_practice) to `out` (a .zip); its size."""
    if mastery is not None and not 0 <= mastery <= 100:
        raise ValueError(f"--mastery is a score in percent, 0 to 100, not {mastery:g}")
    graded = graded_practice(practice, lesson)
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / PAGE
        # beside a lesson the page carries the whole bank (its last problem, a slip's fallback)
        export_html(page, lang=lang, practice=PRACTICE_BANK if lesson is not None else graded, lesson=lesson,
                    scorm={"mastery": mastery, "practice": graded})
        data = page.read_bytes()
    if lesson is not None:
        name = lesson["name"]
        title = lesson.get("title_en") if lang == "en" and lesson.get("title_en") else lesson["title"]
    else:
        name, title = f"practice-{graded}", text("scorm_practice_title", lang, problems=graded)
    identifier = "attention-explorer-" + (re.sub(r"[^A-Za-z0-9-]", "-", name) or "lesson")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for name, content in (("imsmanifest.xml", manifest(identifier, title, mastery)), (PAGE, data)):
            entry = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            entry.external_attr = 0o100644 << 16  # a regular file anyone may read (writestr's default is 0600)
            entry.compress_type = zipfile.ZIP_DEFLATED
            package.writestr(entry, content)
    Path(out).write_bytes(buffer.getvalue())
    return len(buffer.getvalue())
