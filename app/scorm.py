"""A lesson as a SCORM 1.2 package, graded in the course's LMS with no IT ticket (docs/lms.md):
`attention-viz export OUT.zip --scorm --lesson NAME|FILE [--practice N] [--mastery PERCENT]`.

The zip holds imsmanifest.xml at its root (ADL SCORM 1.2: one organization, one item, one SCO) and
index.html, the one-file page (app.export) opening the lesson walked alone (mode=self). The page
finds the LMS's API and reports the student's predictions as the fair checker judged them
(static/explorer/scorm.js): score raw / min / max, the status (incomplete, then completed, or
passed / failed against the mastery score), the progress in suspend_data, the session time.
"""
from __future__ import annotations

import html
import io
import re
import tempfile
import zipfile
from pathlib import Path

from .export import export_html

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


def write_scorm(out, lesson: dict, practice: int, lang: str, mastery: float | None = None) -> int:
    """The package of `lesson` (app.lesson_check.page_lesson's, checked) to `out` (a .zip); its size."""
    if mastery is not None and not 0 <= mastery <= 100:
        raise ValueError(f"--mastery is a score in percent, 0 to 100, not {mastery:g}")
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / PAGE
        export_html(page, lang=lang, practice=practice, lesson=lesson, scorm={"mastery": mastery})
        data = page.read_bytes()
    identifier = "attention-explorer-" + (re.sub(r"[^A-Za-z0-9-]", "-", lesson["name"]) or "lesson")
    title = lesson.get("title_en") if lang == "en" and lesson.get("title_en") else lesson["title"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("imsmanifest.xml", manifest(identifier, title, mastery))
        package.writestr(PAGE, data)
    Path(out).write_bytes(buffer.getvalue())
    return len(buffer.getvalue())
