"""Reading each word's role in a Korean sentence from its particles and endings: rules, not a
learned model. A word is a subject, object, time or place (the roles the heads look for), part of
the predicate, a word with none of these (an adnominal, adverb, linked verb, modifying noun, or a
noun with another particle), or unread: a word the rules cannot read, which the page says so.

The rules, in order:
1. the last word is the predicate unless it ends in a case particle; the words before it that form
   one predicate with it join it (먹고 싶다, 할 수 있다, 읽어 주세요, 먹지 않았다, 할 거예요);
2. a noun with a case particle takes the particle's role (이/가/께서 subject, 을/를 object,
   에서 place, 에 place or time by the noun, 로 place only toward somewhere), once the particle's
   sound fits the noun (가 after a vowel, 이 after a consonant …) and the word is not a verb's
   adnominal form (먹는, 읽은, 먹을);
3. a word that calls someone has no role: a name with the vocative 아/야 (민수야, 지민아) first
   or before a comma, or a noun without a particle set off by a comma (선생님, 여러분,);
4. the noun with 이/가 right before a form of 되다 or 아니다 is their complement, no role (의사가
   되었다, 학생이 아니에요); a topic before it is the subject (나는 학생이 아니다);
5. a word read as noun + 은/는 is a verb's adnominal, no role, when its stem is known, ends in a
   consonant no noun ends in (굳은, 낡은, 젖은), or may be a one-syllable stem before a noun (익은
   사과를), or follows an argument of its clause (벽에 붙은 종이를);
6. a topic (은/는/도/만) is the subject, or the object when the sentence has another subject and an
   action predicate (커피는 내가 샀다), or no subject, a thing-taking predicate and a determiner or
   thing before it (그 영화는 벌써 봤어요), or a thing that a person must do something with (이 약은
   식후에 드세요); a thing's topic before an X하다 verb the rules cannot place has no role;
7. a noun without a particle: a modifier before another noun (학교 도서관에서), the object just
   before a predicate that takes one (밥 먹었어?), a pronoun subject (너 어디 가?), a time word;
   otherwise unread.
When the rules are not sure they give no role or say unread: a wrong subject on the page is worse than none.
"""
from __future__ import annotations

import re

from .hangul import (AUXILIARIES, CONSONANT_STEMS, COUNTERS, DESCRIBES, MEANS, NOT_NOUNS, NUMBERS, PEOPLE,
                     PLACE_AFTER, PLACE_WORDS, TAKES_OBJECT, TIME_ADVERBS, TIME_AFTER, TIME_MODIFIERS,
                     TIME_NOUNS, TIME_WORDS, VOWEL_STEMS, ends_in_a_eo, ends_in_consonant, final_consonant,
                     is_syllable)

UNREAD = "unread"
_PUNCTUATION = ".!?…。,~\"'“”‘’"
#: particle → what it marks, longest first (the first that fits the word is read)
_PARTICLES = (
    ("께서는", "subject"), ("께서도", "subject"), ("께서", "subject"),
    ("에서부터", "place"), ("에서는", "place"), ("에서도", "place"), ("에서만", "place"), ("에서", "place"),
    ("에게서", ""), ("한테서", ""), ("에게는", ""), ("에게도", ""), ("에게", ""), ("한테는", ""), ("한테도", ""),
    ("한테", ""), ("께는", ""), ("께", ""),
    ("으로는", "toward"), ("으로", "toward"), ("로는", "toward"), ("로", "toward"),
    ("에는", "at"), ("에도", "at"), ("에만", "at"), ("에", "at"),
    ("까지는", "span"), ("부터는", "span"), ("까지", "span"), ("부터", "span"),
    ("이나", ""), ("처럼", ""), ("보다", ""), ("마다", ""), ("만큼", ""), ("이랑", ""), ("랑", ""), ("하고", ""), ("의", ""),
    ("와", ""), ("과", ""),
    ("을", "object"), ("를", "object"), ("이", "subject"), ("가", "subject"),
    ("은", "topic"), ("는", "topic"), ("도", "topic"), ("만", "topic"),
)
#: particles whose sound depends on the noun's last syllable: True after a consonant, False after a vowel
_AFTER_CONSONANT = {"이": True, "가": False, "을": True, "를": False, "은": True, "는": False, "과": True,
                    "와": False, "으로": True, "으로는": True, "이랑": True, "랑": False}
#: endings of a verb that links to a later one or describes a noun (not the sentence's predicate)
_LINKING = ("고", "서", "면", "지만", "는데", "은데", "데", "니까", "러", "려고", "려면", "도록", "면서", "다가",
            "자마자", "거나", "든지", "다고", "라고", "냐고", "자고", "게", "던", "는", "을", "더니", "니",
            "도", "며", "야", "죠")
#: linking endings long enough to be read before particles (쓰다가 is not 쓰다 + 가)
_LONG_LINKING = ("지만", "다가", "는데", "면서", "니까", "려고", "도록", "자마자", "거나", "더니", "으면")
#: nouns that end like a verb's ending (라면, 고기, 편지, 가게 …)
_NOUNS_LIKE_VERBS = frozenset(("회의", "강의", "주의", "예의", "토의", "논의", "동의", "라면", "냉면", "편지", "휴지", "바지", "고기", "이야기", "얘기", "가게", "광고", "사고",
                               "교과서", "비행기", "공기", "일기", "돼지", "창고", "도서", "의자", "과자", "숙제"))
#: pronouns said without a particle as the subject in speech (너 어디 가?)
_BARE_SUBJECTS = frozenset(("나", "너", "저", "우리", "저희", "너희"))
#: of those, the ones that also stand before a noun (우리 반, 저 사람)
_MAY_MODIFY = frozenset(("우리", "저희", "너희", "저"))
_WORD_ROLES = {"뭐": "object", "뭘": "object", "무엇": "object", "이걸": "object", "그걸": "object", "저걸": "object",
               "이게": "subject", "그게": "subject", "저게": "subject", "누가": "subject",
               "이건": "topic", "그건": "topic", "저건": "topic", "이거": "topic", "그거": "topic", "저거": "topic"}
_DETERMINERS = frozenset(("이", "그", "저", "이런", "그런", "저런", "이번"))
_MOTION = ("가", "갔", "갑", "갈", "와", "왔", "오", "온", "올", "옵", "나오", "나와", "나왔", "다녀", "다니", "다닌", "이사", "떠나", "떠났", "출발",
           "향하", "향했", "돌아", "옮기", "옮겼", "나가", "나갔", "들어", "올라", "내려", "뛰어", "걸어", "달려")
_CLAUSE_ENDS = ("고", "서", "면", "지만", "는데", "은데", "니까", "면서", "다가", "려고", "도록", "더니")
_COPULA = ("이에요", "예요", "이다", "이야", "야", "입니다", "이었다", "였다", "이었어요", "였어요", "이십니다", "이세요",
           "이셨어요", "이셨다", "이지", "이죠", "이니", "이냐", "이래", "거야", "거예요")
_NOT_TAKING = ("주무", "들어가", "들어오", "들어왔", "들어갔", "돌아", "일어나", "일어났", "가고", "오고")


def _is_hangul(word: str) -> bool:
    return bool(word) and all(is_syllable(ch) for ch in word)


def _split_particle(word: str) -> tuple[str, str, str] | None:
    """(noun, particle, what it marks) when the word reads as a noun with a particle whose sound
    fits the noun, else None."""
    for particle, marks in _PARTICLES:
        noun = word[: -len(particle)]
        if not word.endswith(particle) or not noun:
            continue
        if particle in _AFTER_CONSONANT and _is_hangul(noun[-1:]):
            after_consonant = ends_in_consonant(noun)
            if particle in ("로", "로는"):
                if after_consonant and final_consonant(noun[-1]) != 8:  # 로 after a vowel or ㄹ
                    continue
            elif after_consonant != _AFTER_CONSONANT[particle]:
                continue
        return noun, particle, marks
    return None


def _plain(noun: str) -> str:
    """The noun without a leading number or Latin letters (3시 → 시) and a plural 들."""
    noun = re.sub(r"^[0-9A-Za-z.,\-]+", "", noun)
    return noun[:-1] if noun.endswith("들") and len(noun) > 1 else noun


#: final consonants that end verb and adjective stems but (almost) no noun: ㄲ ㄳ ㄵ ㄶ ㄷ ㄺ-ㅀ ㅄ ㅆ ㅈ ㅎ
#: (닦은, 많은, 굳은, 낡은, 삶은, 닳은, 젖은, 좋은); the nouns that end in one are the exceptions
_STEM_FINALS = frozenset((2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 18, 20, 22, 27))
_NOUNS_WITH_STEM_FINALS = frozenset("밖닭흙값몫넋삯삶빚젖곧")
#: final consonants that end both nouns and one-syllable stems (책은/익은, 밥은/입은, 옷은/씻은, 끝은/붙은)
_EITHER_FINALS = frozenset((1, 16, 17, 19, 25, 26))


def _is_adnominal(noun: str, particle: str) -> bool:
    """Whether a word read as noun + 은/는/을 is a verb's adnominal form (읽은, 먹는, 가는, 먹을):
    a known stem, or one whose last consonant no noun ends in (굳은, 낡은, 젖은), or a -어지/-러지
    stem (떨어지는, 쓰러지는)."""
    if particle == "는":
        return (noun in VOWEL_STEMS or noun.endswith(("하", "되")) or
                noun.endswith("시") and (noun[:-1] in VOWEL_STEMS or noun[:-1].endswith(("하", "으"))) or
                len(noun) > 2 and noun[-1] == "지" and noun[-2] in "어워러라려져쳐" and noun not in PEOPLE)
    if particle in ("은", "을"):
        return (noun in CONSONANT_STEMS or noun.endswith(("있", "없", "싶", "않", "었", "았", "했", "겠")) or
                _is_hangul(noun) and final_consonant(noun[-1]) in _STEM_FINALS
                and noun[-1] not in _NOUNS_WITH_STEM_FINALS and noun not in NOT_NOUNS)
    return False


def _maybe_adnominal(noun: str) -> bool:
    """Whether noun + 은 may as well be a one-syllable stem's adnominal (익은/책은, 씻은/옷은): the
    rules cannot tell which without a word list, so before a noun they give it no role."""
    return (len(noun) == 1 and _is_hangul(noun)
            and (final_consonant(noun) in _EITHER_FINALS or noun in _NOUNS_WITH_STEM_FINALS)
            and noun not in PEOPLE and noun not in TIME_WORDS and noun not in PLACE_AFTER and noun not in COUNTERS)


def _starts(word: str, stems) -> bool:
    return word.startswith(tuple(stems))


def _last_predicate(words: list[str]) -> bool:
    """Whether the last word is a predicate: Hangul-ending, not a noun with a case particle."""
    word = words[-1]
    if not word or not is_syllable(word[-1]):
        return False
    split = _split_particle(word)
    return not (split and split[1] in ("을", "를", "에서", "께서", "에게", "한테", "에", "의", "로", "으로"))


#: dependent nouns after an adnominal that make one predicate with the word after them
#: (할 수 있다, 탈 줄 몰라요, 본 적이 없다, 온 것 같아요, 갈 뻔했다): noun → how the next word starts
#: what follows an adnominal: dependent nouns and time nouns (할 테니까, 끝난 후에, 갈 때)
_AFTER_ADNOMINAL = frozenset(("때", "것", "거", "수", "줄", "뻔", "적", "동안", "후", "전", "다음", "뒤", "곳", "데",
                              "만큼", "대로", "김", "바람"))
_DEPENDENT = {"수": ("있", "없"), "줄": ("알", "몰", "모르"), "적이": ("있", "없"), "적": ("있", "없"),
              "것": ("같",), "거": ("같",), "뻔": ("했", "하")}


def _adnominal_end(word: str) -> bool:
    """Whether a word ends like an adnominal before a dependent noun (할, 본, 먹는, 먹을, 먹던)."""
    return _is_hangul(word) and (final_consonant(word[-1]) in (4, 8) or word.endswith(("는", "던")))


def _joins(before: str, word: str, determiner: bool = False) -> bool:
    """Whether `before` and `word` are one predicate (먹고 싶다, 할 수 있다, 할 거예요 …);
    `determiner`: a determiner stands before `before`, which is then a noun (그 드라마 봤어)."""
    if before == "내" and word.startswith(("주", "줘", "줬", "드")):
        return True  # 숙제를 내 주셨어요: 내다, not 'my'
    if not _is_hangul(before) or before in NOT_NOUNS or before in PEOPLE or before in TIME_WORDS or determiner:
        return False
    if before in _DEPENDENT:
        return word.startswith(_DEPENDENT[before])
    if word in _DEPENDENT or word.startswith(("거예", "거야", "거에", "겁니", "거다", "것이", "뻔")):
        return _adnominal_end(before) and (word in _DEPENDENT or final_consonant(before[-1]) == 8 or word.startswith("뻔"))
    split = _split_particle(before)
    if split and split[2] not in ("", "topic") or word.startswith("주무"):  # 방에서 주무세요
        return False
    if before.endswith("싶어") and word.startswith(("하", "해", "했", "한")):
        return True
    for stems, links in AUXILIARIES:
        if not word.startswith(stems):
            continue
        if "A_EO" in links and ends_in_a_eo(before) and before not in _NOUNS_LIKE_VERBS:
            if not (before.endswith("서") and len(before) > 1):  # 정리해서: a linked verb
                return True
        if before.endswith(tuple(link for link in links if link != "A_EO")):
            return True
    return False


def read_sentence(tokens) -> tuple[str, ...]:
    """Each token's role: a role ('subject', 'object', 'time', 'place'), 'predicate', '' (none of
    them) or UNREAD. The last token is 'predicate' only when it reads as one."""
    words = [token.strip(_PUNCTUATION) or token for token in tokens]
    n = len(words)
    roles: list[str | None] = [None] * n
    kinds: list[tuple] = [()] * n
    if _last_predicate(words):
        roles[-1] = "predicate"
        k = n - 1
        while k > 0:
            skip = 1 if words[k - 1] in ("안", "못") and k > 1 else 0  # 찍으면 안 돼요: 안 stays an adverb
            before = k - 1 - skip
            if not _joins(words[before], words[k], before > 0 and words[before - 1] in _DETERMINERS):
                break
            roles[before] = "predicate"
            k = before
    main = next(i for i in range(n) if roles[i] == "predicate") if roles[-1] == "predicate" else n - 1
    for i in range(n):
        if roles[i] is None:
            roles[i], kinds[i] = _read_word(words, i)
    _mark_vocatives(tokens, words, roles, kinds, main)
    _mark_complements(words, roles, kinds)
    _mark_adnominals(words, roles, kinds, main)
    _resolve_bare(words, roles, kinds, main)
    _resolve_topics(words, roles, kinds, main)
    return tuple(roles)


#: what the word after a vocative -야 starts with when the -야 is a verb's 'must' (가야 해, 지나야 돼)
_MUST = ("하", "해", "했", "한", "할", "합", "되", "돼", "됐", "된", "될", "됩")


def _calls(word: str, following: str) -> bool:
    """Whether a word calls someone with the vocative 아/야: 아 after a consonant (지민아, 얘들아), 야
    after a vowel (민수야, 얘야); not a verb's -아 form (좋아, 앉아: 아 follows ㅏ or ㅗ there),
    -야 form (가야, 먹어야) or the copula (학생이야)."""
    stem, ending = word[:-1], word[-1:]
    if not stem or not _is_hangul(word) or word in NOT_NOUNS or stem in NOT_NOUNS:
        return False
    if ending == "아":
        vowel = (ord(stem[-1]) - 0xAC00) // 28 % 21
        return (ends_in_consonant(stem) and vowel not in (0, 2, 8, 9, 12) and stem not in CONSONANT_STEMS
                and not stem.endswith(("있", "없", "었", "았", "였", "했", "겠")))
    if ending == "야":
        return (not ends_in_consonant(stem) and not ends_in_a_eo(stem) and not following.startswith(_MUST)
                and not (stem.endswith("이") and len(stem) > 1 and ends_in_consonant(stem[:-1])))
    return False


def _mark_vocatives(tokens, words, roles, kinds, main):
    """A vocative has no role: a name or person called with 아/야 first in the sentence or before a
    comma (수진아 이거 봐, 민수야, 밥 먹었어?), or a noun without a particle set off by a comma
    (선생님, 질문이 있어요; 여러분, 조용히 하세요)."""
    for i in range(min(main, len(words) - 1)):
        comma = tokens[i].rstrip().endswith((",", "，"))
        bare = kinds[i] == ("bare",) and words[i] not in _BARE_SUBJECTS
        if roles[i] != "predicate" and (comma and bare or (i == 0 or comma) and kinds[i] in (("bare",), ("link",))
                                        and _calls(words[i], words[i + 1])):
            roles[i], kinds[i] = "", ("vocative",)


#: stems that start like 되다 but are other words (된장, 돼지; 되돌아오다, 되찾다)
_NOT_BECOME = ("된장", "돼지", "됨됨", "되돌", "되찾", "되묻", "되살", "되새", "되풀")


def _becomes(word: str, following: str) -> bool:
    """Whether a word is a form of 되다 'become' or 아니다 'not be' (되었다, 돼요, 된, 되고, 아니에요,
    아닙니다, 아니라, 아닌): the noun with 이/가 right before it is its complement."""
    if word.startswith(_NOT_BECOME) or word in ("아니", "아니요", "아뇨"):
        return False
    if word == "되게":  # 되게 좋다: an adverb, 'very' (부자가 되게 해 주세요: become)
        return following.startswith(("하", "해", "했", "한", "할", "합", "만들", "만드"))
    return word.startswith(("되", "돼", "됐", "된", "될", "됩", "아니", "아닙", "아닌", "아닐", "아냐", "아녜"))


def _mark_complements(words, roles, kinds):
    """The noun with 이/가 (or none) right before 되다 or 아니다 is their complement, not a subject:
    no role (의사가 되었다, 학생이 아니다, 저 학생 아니에요)."""
    for i in range(len(words) - 1):
        if not _becomes(words[i + 1], words[i + 2] if i + 2 < len(words) else ""):
            continue
        split = _split_particle(words[i])
        if (split and split[1] in ("이", "가") and roles[i] == "subject" and kinds[i] == ()
                or kinds[i] == ("bare",) and words[i] not in _BARE_SUBJECTS):
            roles[i], kinds[i] = "", ("complement",)


def _is_nominal(words, roles, kinds, j) -> bool:
    """Whether word j reads as a noun that an adnominal could stand before: one with a case or
    topic particle (not a time word), or one without a particle."""
    if kinds[j][:1] in (("bare",), ("topic",), ("toward",), ("complement",)):
        return True
    split = _split_particle(words[j])
    return bool(split) and kinds[j] == () and roles[j] in ("subject", "object", "place", "") and split[2] != ""


def _is_modified(words, roles, kinds, i) -> bool:
    """Whether the word before i modifies it, so that it is a noun (그 책은, 우리 집은, 내 옷은,
    찾으시는 물건은, 학교 식당은)."""
    before = words[i - 1] if i > 0 else ""
    return bool(before) and (before in _DETERMINERS or before in _MAY_MODIFY or before in ("내", "제", "네")
                             or before.endswith("의") or kinds[i - 1] == ("bare",)
                             or kinds[i - 1] == ("link",) and _adnominal_end(before))


def _mark_adnominals(words, roles, kinds, main):
    """A word read as noun + 은/는 before a noun is an adnominal, no role, when it may be one: a
    one-syllable stem the rules cannot tell from a noun (익은 사과를, 씻은 그릇을; but 책은 내가
    샀다, where the predicate wants the object it lacks), or a word after an argument of its clause
    (벽에 붙은 종이를, DJ가 신나는 음악을): a topic comes first. Not after a word that modifies it."""
    for i in range(len(words) - 1):
        split = _split_particle(words[i])
        if kinds[i][:1] != ("topic",) or i + 1 >= main or not split or split[1] not in ("은", "는"):
            continue
        if not _is_nominal(words, roles, kinds, i + 1) or _is_modified(words, roles, kinds, i):
            continue
        noun = _plain(split[0])
        known = noun in PEOPLE or noun in _BARE_SUBJECTS or noun.endswith(("님", "씨")) or noun in TIME_WORDS
        argument = any(kinds[j] == () and roles[j] in ("subject", "object", "place") for j in range(i))
        # 책은 내가 샀다: a subject next and an object-taking predicate with no object: the topic is its object
        topicalised = (roles[i + 1] == "subject" and kinds[i + 1] == () and _takes(words[main])
                       and "object" not in roles)
        if _maybe_adnominal(noun) and not topicalised or argument and not known:
            roles[i], kinds[i] = "", ("link",)


#: time nouns that say when only after a number or 다음/이번/지난 (3시에, 두 시에, 5일에, 다음 주에);
#: alone, 일은 is 'the work' and 분은 'the person'
_COUNTED_TIMES = frozenset(("시", "분", "초", "일", "월", "년", "주"))
_TENS = ("열", "스물", "스무", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔")


def _uncounted(words, i, noun) -> bool:
    """Whether a time noun that needs a number (시, 일, 분 …) stands without one (그 일은)."""
    return (_plain(noun) == noun and noun in _COUNTED_TIMES and not _after_number(words, i)
            and not (i > 0 and (words[i - 1].startswith(_TENS) or words[i - 1] in TIME_MODIFIERS)))


def _after_number(words, i) -> bool:
    return i > 0 and (words[i - 1] in NUMBERS or bool(re.fullmatch(r"[0-9.,]+", words[i - 1])))


def _read_word(words, i) -> tuple[str | None, tuple]:
    """A word's role from itself alone, or a kind to resolve in context: ('topic', noun),
    ('toward', noun), ('time noun',), ('bare',); ('link',) marks a verb form with no role."""
    word, following = words[i], words[i + 1] if i + 1 < len(words) else ""
    if word in _WORD_ROLES:
        role = _WORD_ROLES[word]
        return (None, ("topic", word)) if role == "topic" else (role, ())
    if word in NOT_NOUNS or re.fullmatch(r"[0-9.,]+", word) or word in COUNTERS and _after_number(words, i):
        return "", ()
    if word in PLACE_WORDS:
        return "place", ()
    if not re.search("[\uac00-\ud7a3]", word):
        return None, ("bare",)
    if word.endswith("히") and len(word) > 1:
        return "", ()  # 조용히, 꼼꼼히: an adverb
    known = (word in _NOUNS_LIKE_VERBS or word in TIME_WORDS or word in TIME_AFTER or word in PEOPLE)  # 휴가: not 휴 + 가
    linked = not known and word.endswith(_LINKING) and word not in _BARE_SUBJECTS
    split = _split_particle(word) if not known and not word.endswith(_LONG_LINKING) else None
    if split:
        return _read_noun(words, i, *split)
    if not known and _is_hangul(word) and (
            final_consonant(word[-1]) in (4, 8) and (_noun_of(following) in _AFTER_ADNOMINAL
                                                      or following.startswith(("테니", "테고", "테지", "듯", "척")))
            or ends_in_a_eo(word) and following.startswith(("있는", "있던", "놓은", "둔"))):
        return "", ("link",)  # 할 테니까, 끝난 후에, 앉아 있는: an adnominal or a verb before one
    plain = _plain(word)
    if word in TIME_MODIFIERS and (following in TIME_WORDS or _plain(following.rstrip("에는도")) in TIME_WORDS):
        return "", ()
    if word in TIME_ADVERBS or word in TIME_AFTER and i > 0:
        return "time", ()
    if plain in TIME_NOUNS:
        return ("", ()) if _after_number(words, i) and following not in TIME_AFTER else (None, ("time noun",))
    if linked:
        return "", ("link",)
    return None, ("bare",)


def _read_noun(words, i, noun, particle, marks) -> tuple[str | None, tuple]:
    """A word read as a noun with a particle: its role, or a kind to resolve in context."""
    following = words[i + 1] if i + 1 < len(words) else ""
    plain = _plain(noun)
    if particle in ("은", "는", "을") and _is_adnominal(noun, particle):
        return "", ("link",)
    if particle == "을" and (following in _DEPENDENT or following in TIME_AFTER or following.startswith(("거", "것"))):
        return "", ("link",)  # 어렸을 때, 늦을 것 같아: an adnominal
    number = re.match(r"[0-9]", noun) is not None
    if not re.search("[\uac00-\ud7a3A-Za-z]", noun) or marks == "topic" and (
            plain in NOT_NOUNS and plain not in PEOPLE or plain in COUNTERS and _after_number(words, i)):
        return "", ()  # 100만, 하나도, 조금만, 한 번도
    if marks == "topic" and plain in ("아침", "점심", "저녁"):
        return None, ("topic", plain)  # 점심은 식당에서 먹었어요: maybe what was eaten
    half = plain == "반" and i > 0 and _noun_of(words[i - 1]) in TIME_WORDS  # 2시 반에
    if marks in ("at", "span", "topic") and (plain in TIME_WORDS and not _uncounted(words, i, noun)
                                             or plain in TIME_AFTER and i > 0 or half):
        return "time", ()
    if marks in ("at", "span", "topic") and plain in PLACE_WORDS:
        return "place", ()
    if marks in ("at", "span", "toward") and (number and plain in COUNTERS and plain not in ("층", "쪽") or plain in ("원", "값", "반값", "배")
                                              or plain.endswith("값")):
        return "", ()  # 3만 원에, 38도까지, 두 배로: an amount
    if marks == "at":
        return ("" if plain == "때문" else "place"), ()
    if marks == "span":
        return ("" if plain in ("처음", "끝") else "place"), ()
    if marks == "topic":
        if particle == "도" and ends_in_a_eo(noun):
            return "", ("link",)  # 먹어도: a linked verb
        return None, ("topic", plain)
    if marks == "toward":
        return None, ("toward", plain)
    return marks, ()


def _noun_of(word: str) -> str:
    """The noun of a word with a particle (어디에 → 어디), else the word."""
    split = _split_particle(word)
    return _plain(split[0]) if split else _plain(word)


def _is_time(word: str) -> bool:
    noun = _noun_of(word)
    return noun in TIME_WORDS or noun in TIME_AFTER or word in TIME_AFTER


def _modifies(words, roles, kinds, i) -> bool:
    """Whether the bare noun at i stands before a noun it modifies (학교 도서관에서, 생일 선물을,
    오후 3시에, 퇴근 후에, 비 때문에, 창문 밖으로, 요리책 두 권을, 우리 회사 대표님이십니다)."""
    n, nxt = len(words), i + 1
    if nxt >= n:
        return False
    word = words[nxt]
    counted = word in NUMBERS and nxt + 1 < n and _split_particle(words[nxt + 1]) is not None  # 요리책 두 권을
    genitive = roles[nxt] == "" and kinds[nxt] == () and word.endswith("의")  # 산 위의 공기
    if word == "때문에" or counted and words[i] not in _BARE_SUBJECTS or genitive or (
            kinds[i] == ("time noun",) and _is_time(word)):
        return True
    if word in NOT_NOUNS or word in _WORD_ROLES or _noun_of(word) in PLACE_WORDS or _noun_of(word) in TIME_ADVERBS:
        return False
    if nxt == n - 1:  # 우리 회사 대표님이십니다 (but 이 케이크 얼마야: a subject)
        subject_before = any(roles[j] == "subject" or kinds[j][:1] == ("topic",) for j in range(i))
        return roles[nxt] == "predicate" and words[nxt].endswith(_COPULA) and (
            subject_before or not (i > 0 and words[i - 1] in _DETERMINERS))
    return (kinds[nxt][:1] in (("topic",), ("toward",), ("bare",), ("time noun",), ("complement",))
            or roles[nxt] in ("subject", "object", "place", "time") and kinds[nxt] == ())


def _resolve_bare(words, roles, kinds, main):
    """Nouns without a particle, from the last to the first: a modifier before a noun; a spoken
    pronoun or person subject (너 어디 가?, 엄마 지금 집에 계셔?); a time noun; just before the
    predicate, its subject when it describes (그 사람 진짜 착해), a place when it moves (학교 안 가),
    else its object (밥 먹었어?); first in the sentence, its subject (민지 요즘 뭐 해?); unread
    otherwise."""
    n = len(words)
    describes, moves = _describes(words[main], _next(words, main)), _starts(words[main], _MOTION)
    for i in reversed(range(n)):
        if kinds[i] not in (("bare",), ("time noun",)):
            continue
        before_main = i < main and not any(roles[j] in ("subject", "object", UNREAD) or kinds[j][:1] == ("topic",)
                                           for j in range(i + 1, main))
        modifies = _modifies(words, roles, kinds, i)
        meal = words[i] in ("아침", "점심", "저녁") and before_main and "object" not in roles and _takes(words[main])
        if words[i] in _BARE_SUBJECTS:
            object_next = i + 1 < n and roles[i + 1] == "object" and kinds[i + 1] == ("bare",)
            roles[i] = "" if modifies and words[i] in _MAY_MODIFY and not object_next else "subject"
        elif modifies and not (meal and not describes):
            roles[i] = ""
        elif kinds[i] == ("time noun",) and not (meal and not describes):
            roles[i] = "time"
        elif _plain(words[i]) in PEOPLE:
            roles[i] = "subject"
        elif before_main and (describes or words[i] in ("비", "눈") and moves):  # 비 온다: weather comes
            roles[i] = "subject" if "subject" not in roles else UNREAD
        elif before_main and moves and not _takes(words[main]):
            roles[i] = "place"
        elif before_main and "object" not in roles:
            roles[i] = "object"
        elif "subject" not in roles and all(roles[j] in ("", "time") for j in range(i)):
            roles[i] = "subject"
        else:
            roles[i] = UNREAD
        kinds[i] = ("bare",)


def _longest(word: str, stems) -> int:
    return max((len(stem) for stem in stems if word.startswith(stem)), default=0)


def _takes(word: str) -> bool:
    """Whether a predicate takes an object: its longest known stem says so (좋아해 takes, 좋아 describes)."""
    return _longest(word, TAKES_OBJECT) > max(_longest(word, DESCRIBES), _longest(word, _NOT_TAKING) - 1,
                                              _longest(word, _ON_ITS_OWN) - 1)


def _describes(word: str, following: str = "") -> bool:
    """Whether a predicate describes (좋다, 있다, 학생이다) rather than acts; an X하다 verb of a
    longer noun acts unless that noun is a describing one (작곡했다 acts, 따뜻하다 describes).
    `following`: the word after it (먹어야 돼요: -야 before 하다/되다 is 'must', not the copula)."""
    if word.endswith(_COPULA) and not (word.endswith("야") and following.startswith(_MUST)):
        return True
    stem = re.match(r"(.{2,}?)(하|해|했|한|할|합)", word)
    if stem and stem.group(1) not in DESCRIBES:
        return False
    return _longest(word, DESCRIBES) >= max(1, _longest(word, TAKES_OBJECT) + 1)


def _next(words, i) -> str:
    return words[i + 1] if i + 1 < len(words) else ""


#: endings of a predicate that a person must do: a request or command (드세요, 먹어라, 가자), a
#: promise (할게요), an intention (할래), a prohibition (열지 마세요); -야 하다/되다 'must' is read apart
_BY_A_PERSON = ("세요", "십시오", "십시요", "어라", "아라", "거라", "자", "게", "게요", "래", "래요", "마", "마라")
#: verbal nouns whose X하다 takes no object, so that its topic is its doer: what happens on its own
#: (회의는 시작합니다, 소포는 도착했다) and what a person does (민수는 운동했어요, 언니는 결혼했어요)
_ON_ITS_OWN = ("시작", "도착", "출발", "발생", "진행", "성공", "실패", "증가", "감소", "변화", "발전", "등장", "유행",
               "존재", "가능", "불가능", "계속", "종료", "완료", "마감", "개봉", "개장", "폐장", "운행", "출근", "퇴근",
               "운동", "산책", "여행", "결혼", "졸업", "입학", "전학", "취직", "은퇴", "노래", "전화", "대답", "이사",
               "입원", "퇴원", "외출", "외식", "등산", "수영", "낚시", "쇼핑", "데이트", "출장", "휴식", "대화", "식사",
               "샤워", "세수", "목욕", "인사", "노력", "고민", "참석", "참여", "합격", "결석", "지각", "출석", "귀국",
               "출국", "입국", "반대", "찬성", "동의", "성장", "독립", "활동", "근무")


def _by_a_person(words, verb, main) -> bool:
    """Whether the predicate says what a person does or must do (드세요, 할게요, 드셔야 합니다), so
    that a thing named as its topic cannot be its doer."""
    last = words[-1]
    must = any(words[j].endswith("야") and words[j + 1].startswith(_MUST) for j in range(main, len(words) - 1))
    return verb == main and (must or last.endswith(_BY_A_PERSON) and not last.endswith(("이래", "이래요")))


def _unknown_act(word: str) -> bool:
    """Whether a predicate is an X하다 verb the rules cannot tell takes an object (제출했어요:
    what was handed in, or who?), nor happens on its own (시작합니다)."""
    stem = re.match(r"(.{2,}?)(하|해|했|한|할|합)", word)
    return bool(stem) and not _describes(word) and not _takes(word) and stem.group(1) not in _ON_ITS_OWN


def _resolve_topics(words, roles, kinds, main):
    """Topics (은/는/도/만) and 로: the subject, or a topicalised object; toward a place, or a means."""
    moves = _starts(words[main], _MOTION) or _starts(words[-1], _MOTION)
    for i, kind in enumerate(kinds):
        if kind[:1] == ("toward",):
            noun = kind[1]
            roles[i] = "place" if (noun in PLACE_AFTER or noun.endswith("쪽") or moves) and noun not in MEANS else ""
    for i, kind in enumerate(kinds):
        if kind[:1] != ("topic",):
            continue
        noun = kind[1]
        verb = next((j for j in range(i + 1, main) if kinds[j] == ("link",) and words[j].endswith(_CLAUSE_ENDS)), main)
        verb -= words[verb].startswith("테")  # 내가 할 테니까: the verb is 할
        other_subject = any(roles[j] == "subject" and kinds[j] == () for j in range(i + 1, verb))
        has_object = any(roles[j] == "object" and kinds[j][:1] != ("topic",) for j in range(len(words)) if j != i)
        describes = _describes(words[verb], _next(words, verb))
        done_for = verb == main < len(words) - 1 and words[-1].startswith(("주세요", "주십시오", "줘", "주시"))
        takes = _takes(words[verb]) or done_for  # 양파는 썰어 주세요
        person = noun in PEOPLE or noun.endswith(("님", "씨", "분"))
        complement = any(kinds[j] == ("complement",) for j in range(i + 1, verb + 1))
        if noun in ("아침", "점심", "저녁") and takes and not has_object:
            roles[i] = "object"  # 점심은 식당에서 먹었어요
        elif noun in TIME_WORDS and not _uncounted(words, i, noun):
            roles[i] = "time"
        elif complement:  # 나는 학생이 아니다, 형은 의사가 되었다: the one who is (not) or becomes
            roles[i] = "subject"
        elif has_object or describes:
            roles[i] = "subject"
        elif other_subject and not _starts(words[verb], _MOTION + _NOT_TAKING + ("났", "나")):
            roles[i] = "object"
        elif not person and takes:
            roles[i] = "object"
        elif not person and _by_a_person(words, verb, main) and not _starts(words[verb], _MOTION + _NOT_TAKING):
            roles[i] = "object"  # 연체된 책은 내일까지 반납해야 합니다: a thing is not who must
        elif not person and _unknown_act(words[verb]):
            roles[i] = ""  # 보고서는 오늘 제출했어요: not sure, so no role rather than a wrong subject
        else:
            roles[i] = "subject"
