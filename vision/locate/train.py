"""Train the card detector (stage 1 of the recognizer) with ultralytics, from a model yaml.

The detector finds card faces and card backs as oriented boxes (YOLO OBB, two classes), on any
print and any deck: it never learns card identities, which the symbol classifier and the colour
reader do on the rectified card. Its data is `tableref synth --task obb` scenes of all four decks'
art on procedural tables. Nothing is downloaded: the network starts from `yolo11n-obb.yaml`,
ultralytics runs offline with its settings in build/, and the result is exported to ONNX, which
is what the product runs (vision/locate/detector.py, onnxruntime; no torch at run time).
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from .detector import CLASSES, DEFAULT_MODEL

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "build" / "detector"
MODEL_YAML = "yolo11n-obb.yaml"
# Scenes per deck: the decks the product reads, UNO-family prints weighted most.
DECK_SHARE = {"ono": 0.35, "uno": 0.25, "dino2": 0.2, "snake-cup": 0.2}


def offline_ultralytics(build: Path = BUILD) -> None:
    """Points ultralytics at a settings folder inside build/ with a font of ours, so that nothing
    tries the network (no hub, no font download, no update check)."""
    cfg = build / "ultralytics-config"
    (cfg / "Ultralytics").mkdir(parents=True, exist_ok=True)
    font = cfg / "Ultralytics" / "Arial.ttf"
    if not font.exists():
        shutil.copy(REPO / "vision" / "art" / "fonts" / "LiberationSans-Bold.ttf", font)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg)
    os.environ["YOLO_OFFLINE"] = "true"


def make_data(images: int, imgsz: int, seed: int, build: Path = BUILD, workers: int = 2, log=print,
              closeups: int = 0, edged: float = 0.0) -> Path:
    """Renders the synthetic scenes (once per arguments) and writes a data yaml over all decks:
    `images` table scenes seen from above, and `closeups` cards held or lying near the lens
    (vision/synth/closeup.py), both split over the decks by DECK_SHARE; `edged` of them with decks
    edged in black or a colour."""
    from vision.synth.writer import OBB_NAMES, write_dataset

    root = build / (f"data-{images}-{imgsz}-{seed}" + (f"-c{closeups}" if closeups else "")
                    + (f"-e{edged:g}" if edged else ""))
    parts = []
    for layout, count in (("table", images), ("closeup", closeups)):
        for k, (deck, share) in enumerate(DECK_SHARE.items()):
            n = max(1, round(count * share)) if count else 0
            if not n:
                continue
            out = root / (deck if layout == "table" else f"{layout}-{deck}")
            if not (out / "data.yaml").exists():
                t0 = time.time()
                # a tenth for validation, and at least one scene per deck however small the set
                write_dataset(deck, str(out), n, seed=seed + k + (100 if layout != "table" else 0), imgsz=imgsz,
                              workers=workers, task="obb", val_fraction=max(0.1, 1.0 / n), layout=layout,
                              edged=edged)
                log(f"rendered {n} {layout} {deck} scenes in {time.time() - t0:.0f} s")
            parts.append(out)
    lines = ["# card detector data: tableref synth --task obb scenes of every deck",
             "train:"] + [f"  - {p / 'images' / 'train'}" for p in parts] + \
            ["val:"] + [f"  - {p / 'images' / 'val'}" for p in parts] + \
            [f"nc: {len(OBB_NAMES)}", "names:"] + [f"  {i}: {n}" for i, n in enumerate(OBB_NAMES)]
    yaml = root / "data.yaml"
    yaml.write_text("\n".join(lines) + "\n")
    return yaml


def warm_start(onnx_path: Path, data_yaml: Path, imgsz: int, log=print) -> Path:
    """A checkpoint rebuilt from a shipped ONNX detector (vision/locate/warm_start.py), its batch
    norms calibrated on training images of `data_yaml`; returns its path in build/."""
    import cv2
    import numpy as np

    from .detector import CardDetector
    from .warm_start import rebuild, save_checkpoint

    det = CardDetector(onnx_path)
    if det.size != imgsz:
        raise ValueError(f"{onnx_path} takes {det.size} px input; train it at --imgsz {det.size}")
    folders = [Path(line.strip()[2:]) for line in data_yaml.read_text().splitlines()
               if line.strip().startswith("- ") and line.strip().endswith("train")]
    files = sorted(f for d in folders for f in d.glob("*.jpg"))
    pick = [files[i] for i in np.linspace(0, len(files) - 1, min(64, len(files))).astype(int)]
    batch = np.concatenate([det._letterbox(cv2.imread(str(f)), square=True)[0] for f in pick])
    model = rebuild(onnx_path, MODEL_YAML, len(CLASSES), calibration=batch)
    path = save_checkpoint(model, BUILD / "warm-start" / (onnx_path.stem + ".pt"), imgsz)
    log(f"rebuilt trainable weights from {onnx_path} (batch norms calibrated on {len(pick)} images): {path}")
    return path


# ultralytics' AdamW rate for our two classes is 0.002 * 5 / (4 + 2) = 0.00167 from scratch
FINE_TUNE_LR0 = 0.0002


def _ultralytics_version() -> str:
    import ultralytics
    return ultralytics.__version__


def train(images: int = 2000, epochs: int = 20, imgsz: int = 320, seed: int = 0, batch: int = 16,
          out: Path | None = DEFAULT_MODEL, command: str = "", init: str | None = None, closeups: int = 0,
          lr0: float | None = None, edged: float = 0.0, device: str = "cpu", workers: int = 0,
          render_workers: int = 2, hours: float | None = None, log=print) -> dict:
    """Trains from the model yaml (from scratch), or continues from `init`: the .pt weights of an
    earlier run of this function, or a detector .onnx of ours (models/card-detector.onnx), never
    downloaded weights. Exports ONNX to `out` and writes `out`.json with the metrics (with `out`
    None, exports nothing: `export` does it later, from the run's weights, on another machine). The
    .pt weights stay in build/detector/runs/. `device` is torch's ("cpu", "0" for the first GPU),
    `workers` the data loader's processes, `render_workers` the scene renderer's; `hours` caps the
    training time (ultralytics then sets the epochs to fit)."""
    offline_ultralytics()
    data = make_data(images, imgsz, seed, log=log, closeups=closeups, edged=edged, workers=render_workers)
    from ultralytics import YOLO  # imported after the offline settings are in place

    if init and str(init).endswith(".onnx"):
        init_pt = warm_start(Path(init), data, imgsz, log=log)
    else:
        init_pt = init
    # a checkpoint carries its own yaml with our two classes, so every layer carries over
    model = YOLO(str(init_pt)) if init_pt else YOLO(MODEL_YAML)
    # ultralytics' optimizer "auto" ignores lr0 and, from ultralytics 8.4 on, a run of one epoch has no
    # warm-up: a short continued run then moves a trained model at a from-scratch rate and loses cards it
    # found. Continuing is fine-tuning: a fixed optimizer at a tenth of the from-scratch rate.
    if lr0 is None and init:
        lr0 = FINE_TUNE_LR0
    extra = {"optimizer": "AdamW", "lr0": lr0} if lr0 else {}
    t0 = time.time()
    name = (f"obb-{images}-{epochs}-{imgsz}-{seed}" + (f"-c{closeups}" if closeups else "")
            + (f"-e{edged:g}" if edged else "") + ("-cont" if init else ""))
    if hours:
        extra["time"] = hours
    if device != "cpu":
        # pictures decoded once into memory: a GPU outruns the loader's JPEG decoding otherwise
        extra["cache"] = "ram"
    # amp=False everywhere: ultralytics' AMP check downloads weights, and the nano model is small
    model.train(data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, seed=seed, device=device,
                workers=workers, amp=False, plots=False, fliplr=0.0,  # a mirrored card is not a card
                degrees=0.0, mosaic=0.5, close_mosaic=max(1, epochs // 5),
                project=str(BUILD / "runs"), name=name, exist_ok=True, verbose=False, **extra)
    seconds = time.time() - t0
    metrics = model.val(data=str(data), imgsz=imgsz, batch=batch, device=device, workers=workers, plots=False,
                        verbose=False)
    card_pt = Path(model.trainer.best) if getattr(model, "trainer", None) else None
    card = {"command": command, "model_yaml": MODEL_YAML, "init": init, "images": images, "closeups": closeups,
            "edged": edged,
            "lr0": lr0, "ultralytics": _ultralytics_version(),
            "epochs": model.trainer.epochs if hours and getattr(model, "trainer", None) else epochs,
            "imgsz": imgsz, "seed": seed, "train_seconds": round(seconds), "device": _device_name(device),
            "batch": batch, "names": list(CLASSES),
            "val_map50": round(float(metrics.box.map50), 4), "val_map50_95": round(float(metrics.box.map), 4),
            "weights": str(card_pt.relative_to(REPO)) if card_pt else None}
    # the card beside the run's weights too: `tableref train --detector --export` takes it from there
    (BUILD / "runs" / name / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    if out is not None:
        export(model, out, imgsz, card)
    log(json.dumps(card))
    return card


def export(model, out: Path, imgsz: int, card: dict) -> Path:
    """Exports `model` (a YOLO, or the path of its .pt weights) to ONNX at `out` and writes the
    model card `card` beside it as `out`.json."""
    if not hasattr(model, "export"):
        offline_ultralytics()
        from ultralytics import YOLO
        model = YOLO(str(model))
    # free height and width: the detector feeds each picture at its own shape (detector.py)
    onnx_path = Path(model.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True, opset=17,
                                  device="cpu"))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(onnx_path, out)
    out.with_suffix(".json").write_text(json.dumps(card, indent=2) + "\n")
    return out


def _device_name(device: str) -> str:
    if str(device) == "cpu":
        return "cpu"
    import torch
    return torch.cuda.get_device_name(int(str(device).split(",")[0]))
