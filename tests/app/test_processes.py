"""What must not depend on the process: a typed sentence's numbers under two hash seeds."""
import subprocess
import sys

from attention_core import custom_preset


def test_same_sentence_gives_identical_arrays_in_two_processes():
    code = ("from attention_core import custom_preset; p = custom_preset('나는 어제 학교에서 친구를 만났다');"
            "import sys; sys.stdout.write(p.q.tobytes().hex() + p.k.tobytes().hex() + p.v.tobytes().hex())")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1]
    p = custom_preset("나는 어제 학교에서 친구를 만났다")
    assert runs[0] == p.q.tobytes().hex() + p.k.tobytes().hex() + p.v.tobytes().hex()
