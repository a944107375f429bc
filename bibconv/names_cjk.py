"""Chinese, Japanese and Korean names written without a space, split into family and given names.

In their own scripts these names are written family first and without a space (``李小明``,
``山田太郎``, ``김민준``). Kept whole, such a name is all family: sorting, citation keys and initials
come out wrong. :func:`split_unspaced` splits it:

* **Korean** (Hangul): the first syllable, or the first two where they form one of the two-syllable
  surnames (``남궁``, ``황보``, ``제갈``, ``선우``…) and a given name follows.
* **Chinese** (Han characters only, two to four of them): a compound surname from the table
  (``欧阳``, ``司马``, ``諸葛``…) when a given name follows, else a common single-character surname
  (simplified and traditional forms) for names of two or three characters.
* **Japanese** (any kana, Han characters opening with a common Japanese family name such as
  ``山田`` or ``佐々木``, or Han characters that no Chinese rule takes): the divider of the
  ``namedivider-python`` package (offline, about 0.3 ms a name), when it is installed
  (``pip install bibconv[japanese]``); without it, a name that opens with a common Japanese family
  name is split there and any other is kept whole.

Names that end like an organisation (``大学``, ``研究所``, ``株式会社``, ``대학교``…) are never
split, nor are names longer than a personal name runs. Readers call this only for names the source
did not split itself (one word, no comma, not braced). Writers that put a name in one field write
such a name back as it is written (:func:`unspaced`), so that it reads back into the same parts and
displays family first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bibconv.patterns import lazy

__all__ = ["is_cjk", "split_unspaced", "unspaced"]

_HANGUL = lazy(r"[\uac00-\ud7a3]+")
_HAN = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_JAPANESE = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3040-\u309f\u30a0-\u30ff]+")
_KANA = lazy(r"[\u3040-\u309f\u30a0-\u30ff]")

_KOREAN_DOUBLE_WORDS = "남궁 황보 제갈 사공 선우 서문 독고 동방 망절 어금 소봉 장곡"
_KOREAN_DOUBLE = frozenset(_KOREAN_DOUBLE_WORDS.split())

_CHINESE_COMPOUND_WORDS = (
    "欧阳 司马 上官 诸葛 东方 皇甫 尉迟 公孙 慕容 令狐 长孙 宇文 司徒 夏侯 轩辕 端木 独孤 南宫 "
    "西门 百里 呼延 澹台 万俟 闻人 赫连 申屠 太史 钟离 拓跋 公冶 宗政 濮阳 淳于 单于 太叔 仲孙 "
    "鲜于 闾丘 司空 亓官 司寇 子车 颛孙 巫马 公西 漆雕 乐正 壤驷 公良 谷梁 宰父 夹谷 段干 东郭 "
    "左丘 梁丘 第五 "
    "歐陽 司馬 諸葛 東方 尉遲 長孫 軒轅 獨孤 南宮 西門 萬俟 聞人 赫連 鍾離 單于 鮮于 閭丘 "
    "顓孫 樂正 壤駟 穀梁 夾穀 東郭"
)
_CHINESE_COMPOUND = frozenset(_CHINESE_COMPOUND_WORDS.split())

_CHINESE_SINGLE = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
    "戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮"
    "柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古"
    "吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫"
    "寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝官封谈匡鞠惠荆乐冀郁胥南班储原栗燕楚鄢劳谌奚皮粟冼蔺楼盘满闻"
    "位厉伊仝区郜海阚花权强帅屠豆朴盖练廉禹井祖漆巴丰支卿国狄平计索宣晋相初门云容敬来扈晁芮都普阙浦"
    "戈伏鹿薄邸雍辜羊乌母裘亓修邰赫杭况那宿鲜印逯隆茹诸战慕危玉银亢嵇公哈湛宾戎勾茅利於呼居揭干但尉"
    "冶斯元束檀衣信展阴昝智幸奉植衡富尧闭由"
    "張劉陳楊黃趙吳孫馬鄭謝許韓馮鄧蕭董潘蔣葉蘇呂盧鍾譚陸賈韋鄒邱閆雷龍陶賀顧龔萬錢嚴湯溫樊齊喬龐"
    "顏莊聶魯嶽歐關蘭紀畢單塗駱藍靳鮑華饒繆簡車項連蘆婁竇衛閔鄔邊師欒榮鞏鄺賴"
)

_ORGANISATION_WORDS = (
    "大学 大學 学院 學院 研究所 研究院 研究会 研究會 研究室 研究中心 中心 实验室 實驗室 科学院 科學院 "
    "公司 集团 集團 协会 協會 学会 學會 委员会 委員會 出版社 医院 醫院 图书馆 圖書館 株式会社 有限会社 "
    "財団 财团 机构 機構 政府 大学校 대학교 대학 연구소 연구원 협회 학회 위원회 병원 센터 주식회사"
)
_ORGANISATION_ENDINGS = tuple(_ORGANISATION_WORDS.split())

_JAPANESE_FAMILIES_WORDS = (
    "佐藤 鈴木 高橋 田中 伊藤 渡辺 渡邊 山本 中村 小林 加藤 吉田 山田 佐々木 山口 松本 井上 木村 斎藤 "
    "斉藤 清水 山崎 池田 橋本 阿部 石川 山下 中島 石井 小川 前田 岡田 長谷川 藤田 後藤 近藤 村上 遠藤 "
    "青木 坂本 福田 太田 西村 藤井 金子 岡本 藤原 中野 三浦 原田 中川 松田 竹内 小野 田村 中山 和田 "
    "石田 森田 上田 柴田 酒井 工藤 横山 宮崎 宮本 内田 高木 安藤 谷口 大野 丸山 今井 高田 藤本 武田 "
    "村田 上野 杉山 増田 平野 大塚 千葉 久保 松井 小島 岩崎 桜井 野口 松尾 野村 木下 菊地 菊池 佐野 "
    "大西 杉本 新井 浜田 菅原 市川 水野 小松 島田 古川 小山 高野 西田 山内 西川 五十嵐 北村 安田 中田 "
    "川口 平田 川崎 飯田 吉川 本田 久保田 沢田 吉村 渡部 岩田 中西 服部 樋口 福島 川上 永井 松岡 田口 "
    "山中 森本 土屋 矢野 広瀬 秋山 石原 松下 大橋 松浦 吉岡 小池 馬場 浅野 荒木 大久保 野田 小沢 田辺 "
    "川村 星野 黒田 尾崎 望月 永田 熊谷 内藤 松村 西山 大谷 平井 大島 岩本 片山 本間 早川 横田 岡崎 "
    "荒井 大石 鎌田 成田 宮田 小田 石橋 篠原 須藤 河野 大沢 小西 高山 栗原 伊東 松原 三宅 福井 大森 "
    "奥村 内山 片岡 安倍 菅野 北川 森下 河合 堀内 宇野 野中 吉野 鈴村 竹中 岸田 石破 小泉 麻生 鳩山"
)
_JAPANESE_FAMILIES = frozenset(_JAPANESE_FAMILIES_WORDS.split())
"""Common Japanese family names of two or three characters: a Han-only name that opens with one
(and has more after it) is read as Japanese, not as a Chinese name with a one-character surname."""

_MAX_LENGTH = {"ko": 4, "zh": 4, "ja": 6}


def split_unspaced(text: str) -> tuple[str, str] | None:
    """``(family, given)`` for a CJK personal name written without a space, else None.

    >>> split_unspaced("李小明"), split_unspaced("欧阳修"), split_unspaced("김민준"), split_unspaced("남궁민")
    (('李', '小明'), ('欧阳', '修'), ('김', '민준'), ('남궁', '민'))
    >>> split_unspaced("北京大学") is None, split_unspaced("Smith") is None
    (True, True)
    """
    if len(text) < 2 or text.endswith(_ORGANISATION_ENDINGS):
        return None
    if _HANGUL.fullmatch(text):
        return _korean(text) if len(text) <= _MAX_LENGTH["ko"] else None
    if not _JAPANESE.fullmatch(text) or len(text) > _MAX_LENGTH["ja"]:
        return None
    if text in _JAPANESE_FAMILIES:
        return None
    japanese = _KANA.search(text) is not None or any(text[:n] in _JAPANESE_FAMILIES for n in (2, 3))
    if not japanese and _HAN.fullmatch(text) and len(text) <= _MAX_LENGTH["zh"]:
        found = _chinese(text)
        if found is not None:
            return found
    return _japanese(text)


def unspaced(family: str, given: str) -> str | None:
    """``family + given`` when that is how the name is written and :func:`split_unspaced` reads it back.

    >>> unspaced("李", "小明"), unspaced("Li", "Xiaoming")
    ('李小明', None)
    """
    whole = family + given
    return whole if split_unspaced(whole) == (family, given) else None


def is_cjk(text: str) -> bool:
    """Whether ``text`` is written wholly in Han characters, kana or Hangul."""
    return _JAPANESE.fullmatch(text) is not None or _HANGUL.fullmatch(text) is not None


def _korean(text: str) -> tuple[str, str]:
    if len(text) >= 3 and text[:2] in _KOREAN_DOUBLE:
        return text[:2], text[2:]
    return text[:1], text[1:]


def _chinese(text: str) -> tuple[str, str] | None:
    if len(text) >= 3 and text[:2] in _CHINESE_COMPOUND:
        return text[:2], text[2:]
    if len(text) <= 3 and text[0] in _CHINESE_SINGLE:
        return text[:1], text[1:]
    return None


def _japanese(text: str) -> tuple[str, str] | None:
    divider = _divider()
    if divider is None:
        known = next((n for n in (3, 2) if text[:n] in _JAPANESE_FAMILIES and len(text) > n), None)
        return (text[:known], text[known:]) if known else None
    divided = divider.divide_name(text)
    family, given = str(divided.family), str(divided.given)
    return (family, given) if family and given and family + given == text else None


@lru_cache(maxsize=1)
def _divider() -> Any:
    """namedivider's rule-and-statistics divider (no network), or None when it is not installed."""
    try:
        from namedivider import BasicNameDivider
    except ImportError:
        return None
    return BasicNameDivider()
