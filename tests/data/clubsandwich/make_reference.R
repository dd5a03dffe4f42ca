# CR2 standard errors, Satterthwaite degrees of freedom and p-values of the mean
# paired difference of item scores, by R's clubSandwich (Pustejovsky & Tipton 2018),
# for pdcompare's tests (tests/stats/test_cr2.py; DESIGN section 33, "Few clusters").
#
#   Rscript tests/data/clubsandwich/make_reference.R   (from the repository root)
#
# Writes items.csv (the data sets: one row per item, three models' scores) and
# reference.csv (for every data set and pair: the estimate, CR2 and CR1 standard
# errors, the Satterthwaite df and the two-sided p-value). Made with R 4.2 and
# clubSandwich 0.5.8 (Debian's r-cran-clubsandwich). The items are unweighted:
# pdcompare's item scores are per-item means, each item counting once.
suppressMessages(library(clubSandwich))
out_dir <- "tests/data/clubsandwich"
set.seed(20261202)

make_set <- function(name, sizes, binary = FALSE, icc = 0.5) {
  cluster <- rep(seq_along(sizes), sizes)
  n <- length(cluster)
  effect <- rep(rnorm(length(sizes), sd = sqrt(icc)), sizes)
  scores <- sapply(c(0, 0.1, 0.3), function(shift) {
    latent <- shift + effect + rnorm(n, sd = sqrt(1 - icc))
    if (binary) as.numeric(latent + rnorm(n, sd = 0.5) > 0.2) else round(latent, 6)
  })
  data.frame(dataset = name, item = seq_len(n), cluster = cluster,
             a = scores[, 1], b = scores[, 2], c = scores[, 3])
}

sets <- rbind(
  # 12 unequal clusters of 2 to 60 items (the validity study's design)
  make_set("twelve_unequal", c(2, 60, 5, 17, 3, 41, 8, 2, 26, 11, 4, 33)),
  make_set("six_unequal", c(3, 50, 7, 2, 22, 12)),
  make_set("twelve_binary", c(2, 60, 5, 17, 3, 41, 8, 2, 26, 11, 4, 33), binary = TRUE),
  make_set("twentyfour", sample(2:60, 24, replace = TRUE)),
  make_set("three_clusters", c(2, 2, 8)),
  make_set("singletons", rep(1, 15)),
  # DESIGN 21's twelve items in four passages of three (equal clusters: CR2 is CR1)
  data.frame(dataset = "design21", item = 1:12, cluster = rep(1:4, each = 3),
             a = c(1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0),
             b = c(0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0),
             c = c(1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 1))
)

pairs <- list(c("a", "b"), c("a", "c"), c("b", "c"))
rows <- list()
for (name in unique(sets$dataset)) {
  s <- sets[sets$dataset == name, ]
  for (p in pairs) {
    d <- s[[p[1]]] - s[[p[2]]]
    fit <- lm(d ~ 1)
    cr2 <- coef_test(fit, vcov = "CR2", cluster = s$cluster, test = "Satterthwaite")
    cr1 <- coef_test(fit, vcov = "CR1", cluster = s$cluster, test = "naive-t")
    rows[[length(rows) + 1]] <- data.frame(
      dataset = name, model_1 = p[1], model_2 = p[2],
      n_items = nrow(s), n_clusters = length(unique(s$cluster)),
      estimate = cr2$beta, se_cr2 = cr2$SE, df_cr2 = cr2$df_Satt, p_cr2 = cr2$p_Satt,
      se_cr1 = cr1$SE, df_cr1 = cr1$df_t, p_cr1 = cr1$p_t)
  }
}
reference <- do.call(rbind, rows)
write.csv(sets, file.path(out_dir, "items.csv"), row.names = FALSE)
write.csv(format(reference, digits = 17), file.path(out_dir, "reference.csv"),
          row.names = FALSE, quote = FALSE)
