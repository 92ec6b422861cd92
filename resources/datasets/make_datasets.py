#!/usr/bin/env python3
"""Writes the real datasets a new workspace registers (resources/datasets/*.csv) from Debian's python3-sklearn
package, which carries them under BSD-3-Clause (see README.md here for their origin and licences).

    apt-get download python3-sklearn && dpkg-deb -x python3-sklearn_*_all.deb sk
    python3 resources/datasets/make_datasets.py sk/usr/lib/python3/dist-packages/sklearn/datasets/data

The package's files start with a "rows,columns,class names..." line and hold class indices; the CSV files written
here have a header row with the feature names instead and the class names in the last column, values unchanged.
"""
import csv
import gzip
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent

IRIS = ["sepal_length_cm", "sepal_width_cm", "petal_length_cm", "petal_width_cm"]
WINE = ["alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
        "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280_od315_of_diluted_wines",
        "proline"]
CELL = ["radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity", "concave_points",
        "symmetry", "fractal_dimension"]
CANCER = [f"mean_{c}" for c in CELL] + [f"{c}_error" for c in CELL] + [f"worst_{c}" for c in CELL]
DIGITS = [f"pixel_{r}_{c}" for r in range(8) for c in range(8)]


def convert(source, target, features, label, class_names=None):
    """class_names None: the package's first line names them."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", newline="") as f:
        rows = list(csv.reader(f))
    if class_names is None:
        meta, rows = rows[0], rows[1:]
        if int(meta[0]) != len(rows) or int(meta[1]) != len(features):
            sys.exit(f"{source}: the first line says {meta[0]} rows of {meta[1]} features, "
                     f"found {len(rows)} rows, expected {len(features)} features")
        class_names = meta[2:]
    with open(target, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(features + [label])
        for i, row in enumerate(rows):
            if len(row) != len(features) + 1:
                sys.exit(f"{source}:{i + 2}: {len(row)} values, expected {len(features) + 1}")
            out.writerow(row[:-1] + [class_names[int(float(row[-1]))]])
    print(f"{target.name}: {len(rows)} rows, {len(features)} features, classes {', '.join(class_names)}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = pathlib.Path(sys.argv[1])
    convert(data / "iris.csv", HERE / "iris.csv", IRIS, "species")
    convert(data / "wine_data.csv", HERE / "wine.csv", WINE, "cultivar")
    convert(data / "breast_cancer.csv", HERE / "breast_cancer.csv", CANCER, "diagnosis")
    convert(data / "digits.csv.gz", HERE / "digits.csv", DIGITS, "digit", [str(d) for d in range(10)])


if __name__ == "__main__":
    main()
