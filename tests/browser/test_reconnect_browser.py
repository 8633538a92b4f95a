"""A lecture-hall Wi-Fi drop: the page reconnects to its own session and keeps working."""
from urllib.parse import urlparse

import pytest
from explorer_page import ExplorerPage
from tcp_proxy import DroppingProxy

pytestmark = pytest.mark.browser


def test_after_a_dropped_connection_the_page_reconnects_and_python_answers_again(page, served_app, console_errors):
    proxy = DroppingProxy(urlparse(served_app).port)
    logs = []
    page.on("console", lambda message: logs.append(message.text))
    try:
        explorer = ExplorerPage(page, f"http://127.0.0.1:{proxy.port}/").open(preset="cat-fish")
        explorer.apply_sentence("첫 문장 하나")
        explorer.expect_query("하나")
        # only the websocket is dropped: a file still loading would fail with a console error
        page.wait_for_load_state("networkidle")
        proxy.drop_all()
        for _ in range(150):  # Panel retries with a back-off; allow 30 s
            if any("Reconnected websocket" in line for line in logs):
                break
            page.wait_for_timeout(200)
        assert any("Reconnected websocket" in line for line in logs), logs
        # the same session: the sentence typed before the drop is still there, and Python answers
        # (the page draws the re-pulled document after that log line: wait for its table)
        explorer.expect_query("하나")
        assert explorer.weights()[0] == ["첫", "문장", "하나"]
        explorer.apply_sentence("다시 연결된 두번째 문장")
        explorer.expect_query("문장")
        assert explorer.weights()[0] == ["다시", "연결된", "두번째", "문장"]
    finally:
        proxy.close()
    assert console_errors == []
